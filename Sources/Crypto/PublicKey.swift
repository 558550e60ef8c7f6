import COpenSSL

/// A public key (EC P-256/384/521, RSA, Ed25519) loaded from SubjectPublicKeyInfo DER.
///
/// A final class owns the `EVP_PKEY`. Verification allocates its own `EVP_MD_CTX`, so one key can
/// verify from many threads at once.
public final class PublicKey: @unchecked Sendable {
    let pkey: OpaquePointer
    /// The SubjectPublicKeyInfo DER this key was loaded from (or encodes to).
    public let spkiDER: [UInt8]
    public let keyType: KeyType

    /// Loads SubjectPublicKeyInfo DER; rejects trailing bytes.
    public convenience init(spkiDER: [UInt8]) throws(CryptoError) {
        let pkey = try decodeDER(spkiDER, what: "SubjectPublicKeyInfo", free: { EVP_PKEY_free($0) }) { p, len in
            d2i_PUBKEY(nil, p, len)
        }
        self.init(owning: pkey, spkiDER: spkiDER)
    }

    /// Takes ownership of `pkey` (one reference).
    init(owning pkey: OpaquePointer, spkiDER: [UInt8]? = nil) {
        self.pkey = pkey
        self.spkiDER = spkiDER ?? encodeDER({ i2d_PUBKEY(pkey, $0) }) ?? []
        self.keyType = PublicKey.keyType(of: pkey)
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Lowercase hex SHA-256 of the SubjectPublicKeyInfo DER (the project's key fingerprint).
    public var fingerprint: String { Hex.encode(MessageDigest.sha256(spkiDER)) }

    static func keyType(of pkey: OpaquePointer) -> KeyType {
        if EVP_PKEY_is_a(pkey, "EC") == 1 {
            var name = [CChar](repeating: 0, count: 64)
            var len = 0
            guard EVP_PKEY_get_group_name(pkey, &name, name.count, &len) == 1 else { return .other("EC") }
            let group = String(decoding: name.prefix(len).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return KeyType.Curve(groupName: group).map { .ec($0) } ?? .other("EC \(group)")
        }
        // An id-RSASSA-PSS key (parameters in the SPKI) counts as RSA too, as c2pa-rs accepts it.
        if EVP_PKEY_is_a(pkey, "RSA") == 1 || EVP_PKEY_is_a(pkey, "RSA-PSS") == 1 {
            return .rsa(bits: Int(EVP_PKEY_get_bits(pkey)))
        }
        if EVP_PKEY_is_a(pkey, "ED25519") == 1 { return .ed25519 }
        if let name = EVP_PKEY_get0_type_name(pkey) { return .other(String(cString: name)) }
        return .other("unknown")
    }

    /// Verifies a COSE-style signature over `message`.
    ///
    /// ECDSA signatures are raw r‖s of exactly twice the curve's field size, and the key's curve
    /// must be the one the algorithm names. PS* is RSA-PSS, salt length = hash length, MGF1 with
    /// the same hash. Ed25519 is pure EdDSA. Any mismatch returns false.
    public func verify(signature: [UInt8], message: [UInt8], algorithm: SignatureAlgorithm) -> Bool {
        defer { ERR_clear_error() }
        guard keyType.supports(algorithm) else { return false }
        var sig = signature
        if let curve = algorithm.requiredCurve {
            guard let der = try? ECDSASignatureEncoding.der(fromRaw: signature, curve: curve) else { return false }
            sig = der
        }
        guard let mctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(mctx) }
        var pctx: OpaquePointer?
        guard EVP_DigestVerifyInit(mctx, &pctx, algorithm.digest?.evp, nil, pkey) == 1 else { return false }
        if algorithm.isPSS {
            guard let pctx, configurePSS(pctx, algorithm) else { return false }
        }
        let rc = sig.withUnsafeBufferPointer { s in
            message.withUnsafeBufferPointer { m in
                EVP_DigestVerify(mctx, s.baseAddress, s.count, m.baseAddress, m.count)
            }
        }
        return rc == 1
    }
}

/// Sets RSA-PSS padding with salt = digest length and MGF1 over the same digest.
func configurePSS(_ pctx: OpaquePointer, _ algorithm: SignatureAlgorithm) -> Bool {
    guard let md = algorithm.digest?.evp else { return false }
    return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) > 0
        && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) > 0
        && EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, md) > 0
}
