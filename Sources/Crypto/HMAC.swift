import COpenSSL

/// HMAC (RFC 2104) with SHA-256 through OpenSSL's one-shot `HMAC()`: the key derivation and the
/// request signature of AWS Signature Version 4.
public enum HMAC {
    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func sha256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        // An empty array may have no storage; HMAC() wants pointers, so give it one byte.
        let k = key.isEmpty ? [0] : key, m = message.isEmpty ? [0] : message
        let result = COpenSSL.HMAC(DigestAlgorithm.sha256.evp, k, Int32(key.count), m, message.count, &out, &length)
        precondition(result != nil && length == 32, "HMAC-SHA256 failed: \(OpenSSLError.drainQueue())")
        return out
    }
}
