import Crypto
import Foundation

/// A SHA-256 digest: exactly 32 bytes, lowercase hex in and out.
public struct ContentDigest: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Accepts exactly 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Accepts exactly 64 lowercase hex characters (the form the record and bundles use).
    public init?(hex: String) {
        guard hex.utf8.count == 64,
              hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let b = Hex.decode(hex) else { return nil }
        self.bytes = b
    }

    /// SHA-256 of `data`.
    public static func sha256<Bytes: ContiguousBytes>(of data: Bytes) -> ContentDigest {
        ContentDigest(unchecked: MessageDigest.sha256(data))
    }

    /// SHA-256 of the concatenation of `parts`.
    public static func sha256(concatenating parts: [[UInt8]]) -> ContentDigest {
        let h = MessageDigest(.sha256)
        for p in parts { h.update(p) }
        return ContentDigest(unchecked: h.finalize())
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }

    public static func < (a: ContentDigest, b: ContentDigest) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

/// SHA-256 of a signing certificate's SubjectPublicKeyInfo DER, lowercase hex: the key
/// fingerprint used by the record, the disclosure identity ladder and the index.
public enum KeyFingerprint {
    public static func of(subjectPublicKeyInfoDER spki: [UInt8]) -> String {
        ContentDigest.sha256(of: spki).hex
    }
}

/// Bytewise ordering of UTF-8 strings (the order every sorted list in the format uses).
func utf8Precedes(_ a: String, _ b: String) -> Bool {
    Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
}
