import Foundation

import COpenSSL
import Ground

/// The constructors that hash into a `ContentID` (SHA-256 over OpenSSL EVP): `Ground` defines
/// the value and cannot import this module, so hashing lives here.
extension ContentID {
    /// The ID of `bytes`.
    public init<Bytes: ContiguousBytes>(of bytes: Bytes) {
        self = bytes.withUnsafeBytes { ContentID.sha256(of: $0) }
    }

    /// SHA-256 of a raw buffer.
    public static func sha256(of buffer: UnsafeRawBufferPointer) -> ContentID {
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var len: UInt32 = 0
        _ = withUnsafeMutableBytes(of: &digest) { out in
            EVP_Digest(buffer.baseAddress, buffer.count, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &len,
                       DigestAlgorithm.sha256.evp, nil)
        }
        return ContentID(words: UInt64(bigEndian: digest.0), UInt64(bigEndian: digest.1),
                         UInt64(bigEndian: digest.2), UInt64(bigEndian: digest.3))
    }

    /// SHA-256 of `data`.
    public static func sha256<Bytes: ContiguousBytes>(of data: Bytes) -> ContentID { ContentID(of: data) }

    /// SHA-256 of the concatenation of `parts`.
    public static func sha256(concatenating parts: [[UInt8]]) -> ContentID {
        let h = MessageDigest(.sha256)
        for p in parts { h.update(p) }
        return h.finalizeID()
    }
}

extension MessageDigest {
    /// Finishes a SHA-256 and returns it as a `ContentID` (the hasher is reset).
    public func finalizeID() -> ContentID {
        precondition(algorithm == .sha256, "finalizeID is for SHA-256")
        return ContentID(digest: finalize())!  // a SHA-256 is 32 bytes
    }
}
