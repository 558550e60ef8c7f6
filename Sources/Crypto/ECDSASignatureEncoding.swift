import COpenSSL
import Ground

/// Converts ECDSA signatures between COSE's raw form (r‖s, each left-padded to the curve's field
/// size; RFC 9053 §2.1) and the DER `ECDSA-Sig-Value` OpenSSL signs and verifies.
public enum ECDSASignatureEncoding {
    /// DER `SEQUENCE { r INTEGER, s INTEGER }` from raw r‖s. Throws on a length that does not fit the curve.
    public static func der(fromRaw raw: [UInt8], curve: KeyType.Curve) throws(CryptoError) -> [UInt8] {
        let n = curve.fieldBytes
        guard raw.count == 2 * n else {
            throw CryptoError(StatusCode.ecdsaRawLength, "raw \(curve.rawValue) signature must be \(2 * n) bytes, got \(raw.count)")
        }
        guard let sig = ECDSA_SIG_new() else { throw CryptoError.openssl(StatusCode.ecdsaAlloc, "ECDSA_SIG_new") }
        defer { ECDSA_SIG_free(sig) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(n), nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress.map { $0 + n }, Int32(n), nil) }
        guard let r, let s else {
            BN_free(r); BN_free(s)
            throw CryptoError.openssl(StatusCode.ecdsaAlloc, "BN_bin2bn")
        }
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r); BN_free(s)
            throw CryptoError.openssl(StatusCode.ecdsaAlloc, "ECDSA_SIG_set0")
        }
        guard let der = encodeDER({ i2d_ECDSA_SIG(sig, $0) }) else {
            throw CryptoError.openssl(StatusCode.ecdsaEncode, "i2d_ECDSA_SIG")
        }
        return der
    }

    /// Raw r‖s from a DER `ECDSA-Sig-Value`. Rejects trailing bytes and values wider than the curve.
    public static func raw(fromDER der: [UInt8], curve: KeyType.Curve) throws(CryptoError) -> [UInt8] {
        let sig = try decodeDER(der, what: "ECDSA-Sig-Value", free: { ECDSA_SIG_free($0) }) { p, len in
            d2i_ECDSA_SIG(nil, p, len)
        }
        defer { ECDSA_SIG_free(sig) }
        let n = curve.fieldBytes
        var out = [UInt8](repeating: 0, count: 2 * n)
        let ok = out.withUnsafeMutableBufferPointer { buf -> Bool in
            guard let base = buf.baseAddress else { return false }
            return BN_bn2binpad(ECDSA_SIG_get0_r(sig), base, Int32(n)) == Int32(n)
                && BN_bn2binpad(ECDSA_SIG_get0_s(sig), base + n, Int32(n)) == Int32(n)
        }
        guard ok else { throw CryptoError(StatusCode.ecdsaValueTooWide, "r or s is wider than \(n) bytes") }
        return out
    }
}
