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

    /// SHA-256 of `left ‖ right` (64 bytes, a Merkle tree's parent): one EVP digest over the
    /// stack, no array or hasher object allocated — bundles verify ~20 of these per leaf.
    public static func sha256(_ left: ContentID, _ right: ContentID) -> ContentID {
        var pair = (left.w0.bigEndian, left.w1.bigEndian, left.w2.bigEndian, left.w3.bigEndian,
                    right.w0.bigEndian, right.w1.bigEndian, right.w2.bigEndian, right.w3.bigEndian)
        return Swift.withUnsafeBytes(of: &pair) { sha256(of: $0) }
    }

    /// SHA-256 of the concatenation of `parts`.
    public static func sha256(concatenating parts: [[UInt8]]) -> ContentID {
        let count = parts.reduce(0) { $0 + $1.count }
        if count > 4096 {
            let h = MessageDigest(.sha256)
            for p in parts { h.update(p) }
            return h.finalizeID()
        }
        // Short inputs (disclosure leaves): one buffer and one EVP digest, cheaper than a
        // hasher object.
        var all: [UInt8] = []
        all.reserveCapacity(count)
        for p in parts { all += p }
        return all.withUnsafeBytes { sha256(of: $0) }
    }
}

extension MessageDigest {
    /// Finishes a SHA-256 and returns it as a `ContentID` (the hasher is reset).
    public func finalizeID() -> ContentID {
        precondition(algorithm == .sha256, "finalizeID is for SHA-256")
        return ContentID(digest: finalize())!  // a SHA-256 is 32 bytes
    }
}
