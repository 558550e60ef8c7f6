import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`).
public enum SecureRandom {
    /// `count` random bytes (0 ≤ count ≤ 1 MiB).
    public static func bytes(_ count: Int) throws(OpenSSLError) -> [UInt8] {
        guard count >= 0, count <= 1 << 20 else { throw OpenSSLError("RAND_bytes(\(count) bytes)") }
        var out = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return out }
        let rc = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard rc == 1 else { throw OpenSSLError("RAND_bytes") }
        return out
    }
}
