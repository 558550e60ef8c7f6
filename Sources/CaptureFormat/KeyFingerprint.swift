import Crypto
import Ground

/// SHA-256 of a signing certificate's SubjectPublicKeyInfo DER: the key fingerprint used by
/// the record, the disclosure identity ladder and the index.
public enum KeyFingerprint {
    public static func of(subjectPublicKeyInfoDER spki: [UInt8]) -> ContentID {
        ContentID.sha256(of: spki)
    }
}

/// Bytewise ordering of UTF-8 strings (the order every sorted list in the format uses).
func utf8Precedes(_ a: String, _ b: String) -> Bool {
    Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
}
