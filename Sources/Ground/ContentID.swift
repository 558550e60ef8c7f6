import Foundation  // ContiguousBytes only

/// The identity of every byte string the archive keeps: its SHA-256, 32 bytes.
///
/// One type for blobs, chunks, records, reports, sidecar digests and key fingerprints alike
/// (restic's `ID`, swift-crypto's `SHA256Digest`). Stored as four big-endian words — no heap
/// array — so comparing, hashing and sorting a million IDs touch no allocator, and the order is
/// the order of the bytes (and of the lowercase hex). Hex out is lowercase; hex in is checked
/// for length and alphabet (`init?(hex:)` takes the canonical lowercase form the formats and
/// the index use, `init?(hexIgnoringCase:)` what a person may type). Hashing lives in `Crypto`
/// (`ContentID(of:)`): this module imports nothing of ours.
public struct ContentID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Number of bytes of an ID.
    public static let byteCount = 32
    /// Number of hex digits of an ID.
    public static let hexCount = 64

    // Big-endian words: comparing the tuple compares the bytes.
    public let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// An ID from its four big-endian words.
    public init(words w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
    }

    /// An ID from exactly 32 bytes; nil for any other length.
    public init?(_ buffer: UnsafeRawBufferPointer) {
        guard buffer.count == Self.byteCount else { return nil }
        self.init(unchecked: buffer)
    }

    /// An ID from a 32-byte digest; nil for any other length.
    public init?<Bytes: Collection>(digest: Bytes) where Bytes.Element == UInt8 {
        guard digest.count == Self.byteCount else { return nil }
        if let id = digest.withContiguousStorageIfAvailable({ ContentID(UnsafeRawBufferPointer($0)) }) {
            guard let id else { return nil }
            self = id
            return
        }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (i, byte) in digest.enumerated() {
            switch i / 8 {
            case 0: words.0 = words.0 << 8 | UInt64(byte)
            case 1: words.1 = words.1 << 8 | UInt64(byte)
            case 2: words.2 = words.2 << 8 | UInt64(byte)
            default: words.3 = words.3 << 8 | UInt64(byte)
            }
        }
        self.init(words: words.0, words.1, words.2, words.3)
    }

    /// The 32 bytes at the end of `key` (an index key `… ‖ id`, or a whole 32-byte key).
    public init?(suffixOf key: UnsafeRawBufferPointer) {
        guard key.count >= Self.byteCount else { return nil }
        self.init(unchecked: UnsafeRawBufferPointer(rebasing: key[(key.count - Self.byteCount)...]))
    }

    private init(unchecked b: UnsafeRawBufferPointer) {
        func word(_ i: Int) -> UInt64 { UInt64(bigEndian: b.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) }
        self.init(words: word(0), word(1), word(2), word(3))
    }

    /// The 32 bytes as an array (allocates; `withUnsafeBytes` does not).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Calls `body` with the 32 bytes, from the stack: no allocation.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var words = (w0.bigEndian, w1.bigEndian, w2.bigEndian, w3.bigEndian)
        return try Swift.withUnsafeBytes(of: &words, body)
    }

    /// Writes the 32 bytes into `buffer` at `offset` (the caller checked the room).
    public func store(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        buffer.storeBytes(of: w0.bigEndian, toByteOffset: offset, as: UInt64.self)
        buffer.storeBytes(of: w1.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
        buffer.storeBytes(of: w2.bigEndian, toByteOffset: offset + 16, as: UInt64.self)
        buffer.storeBytes(of: w3.bigEndian, toByteOffset: offset + 24, as: UInt64.self)
    }

    public var description: String { hex }

    public static func < (a: ContentID, b: ContentID) -> Bool {
        (a.w0, a.w1, a.w2, a.w3) < (b.w0, b.w1, b.w2, b.w3)
    }
}

/// Lets an ID be passed where bytes are (an LMDB key, a hash update) without a copy.
extension ContentID: ContiguousBytes {}
