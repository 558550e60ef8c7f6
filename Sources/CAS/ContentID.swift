import Crypto
import Foundation

/// The identity of a blob or chunk: its SHA-256, a 32-byte value. Hex in and out is
/// lowercase; parsing checks the length and the alphabet. Ordering is byte order.
public struct ContentID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Number of bytes of an ID.
    public static let byteCount = 32
    // Big-endian words: comparing the tuple compares the bytes.
    private let w0, w1, w2, w3: UInt64

    /// The ID of `bytes` (a SHA-256 over OpenSSL EVP).
    public init<Bytes: ContiguousBytes>(of bytes: Bytes) {
        self.init(digest: MessageDigest.sha256(bytes))!
    }

    /// An ID from a 32-byte digest; nil for any other length.
    public init?<Bytes: Collection>(digest: Bytes) where Bytes.Element == UInt8 {
        guard digest.count == Self.byteCount else { return nil }
        var words = [UInt64](repeating: 0, count: 4)
        for (i, byte) in digest.enumerated() { words[i / 8] = words[i / 8] << 8 | UInt64(byte) }
        (w0, w1, w2, w3) = (words[0], words[1], words[2], words[3])
    }

    /// An ID from an already-borrowed 32-byte buffer (an LMDB key).
    public init?(_ buffer: UnsafeRawBufferPointer) {
        self.init(digest: buffer)
    }

    /// Parses 64 hex digits (either case); nil for anything else.
    public init?(hex: String) {
        guard hex.utf8.count == Self.byteCount * 2, let bytes = Hex.decode(hex) else { return nil }
        self.init(digest: bytes)
    }

    /// The 32 bytes.
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(Self.byteCount)
        for w in [w0, w1, w2, w3] {
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: w >> UInt64(shift))) }
        }
        return out
    }

    /// Lowercase hex, 64 characters.
    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }

    public static func < (a: ContentID, b: ContentID) -> Bool {
        (a.w0, a.w1, a.w2, a.w3) < (b.w0, b.w1, b.w2, b.w3)
    }
}

extension ContentID: ContiguousBytes {
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
}

extension ContentID: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = ContentID(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a 64-digit hex SHA-256"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hex)
    }
}
