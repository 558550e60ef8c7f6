import COpenSSL
import Ground

/// A private signing key. A final class owns the `EVP_PKEY`.
///
/// Generated keys come from OpenSSL's CSPRNG and ECDSA signatures use random nonces: neither is
/// reproducible from a seed. Load a key with `init(pem:)` when the same key is needed again.
public final class PrivateKey: @unchecked Sendable {
    let pkey: OpaquePointer
    public let keyType: KeyType

    init(owning pkey: OpaquePointer) {
        self.pkey = pkey
        self.keyType = PublicKey.keyType(of: pkey)
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Generates a fresh key.
    public static func generate(_ kind: KeyKind) throws(CryptoError) -> PrivateKey {
        let algorithm: String = switch kind {
        case .ec: "EC"
        case .rsa: "RSA"
        case .ed25519: "ED25519"
        }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw CryptoError.openssl(StatusCode.keyGenerate, "EVP_PKEY_CTX_new_from_name(\(algorithm))")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_keygen_init(ctx) == 1 else { throw CryptoError.openssl(StatusCode.keyGenerate, "EVP_PKEY_keygen_init") }
        switch kind {
        case .ec(let curve):
            guard EVP_PKEY_CTX_set_group_name(ctx, curve.groupName) == 1 else {
                throw CryptoError.openssl(StatusCode.keyGenerate, "EVP_PKEY_CTX_set_group_name")
            }
        case .rsa(let bits):
            guard bits >= 1024, bits <= 16384 else { throw CryptoError(StatusCode.keyBadSize, "RSA size \(bits) out of range") }
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(bits)) == 1 else {
                throw CryptoError.openssl(StatusCode.keyGenerate, "EVP_PKEY_CTX_set_rsa_keygen_bits")
            }
        case .ed25519: break
        }
        var pkey: OpaquePointer?
        guard EVP_PKEY_generate(ctx, &pkey) == 1, let pkey else { throw CryptoError.openssl(StatusCode.keyGenerate, "EVP_PKEY_generate") }
        return PrivateKey(owning: pkey)
    }

    /// Loads a PEM private key (PKCS#8 `PRIVATE KEY`, or traditional `EC PRIVATE KEY` / `RSA PRIVATE KEY`).
    public convenience init(pem: String) throws(CryptoError) {
        let bio = try MemoryBIO(Array(pem.utf8))
        guard let pkey = PEM_read_bio_PrivateKey(bio.bio, nil, nil, nil) else {
            throw CryptoError.openssl(StatusCode.pemNoPrivateKey, "PEM_read_bio_PrivateKey")
        }
        self.init(owning: pkey)
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public var pemPKCS8: String {
        guard let bio = try? MemoryBIO(),
              PEM_write_bio_PrivateKey(bio.bio, pkey, nil, nil, 0, nil, nil) == 1 else { return "" }
        return bio.string()
    }

    /// The matching public key.
    public var publicKey: PublicKey {
        // i2d_PUBKEY writes only the public half; reload it as an independent EVP_PKEY.
        let spki = encodeDER({ i2d_PUBKEY(pkey, $0) }) ?? []
        if let key = try? PublicKey(spkiDER: spki) { return key }
        EVP_PKEY_up_ref(pkey)
        return PublicKey(owning: pkey)
    }

    /// Signs `message` as COSE expects: ECDSA → raw r‖s; PS* → RSA-PSS (salt = hash length,
    /// MGF1 same hash); Ed25519 → pure EdDSA. Throws `key.algorithmMismatch` when the key cannot
    /// make that algorithm.
    public func sign(_ message: [UInt8], algorithm: SignatureAlgorithm) throws(CryptoError) -> [UInt8] {
        guard keyType.supports(algorithm) else {
            throw CryptoError(StatusCode.keyAlgorithmMismatch, "a \(keyType) key cannot sign \(algorithm.rawValue)")
        }
        guard let mctx = EVP_MD_CTX_new() else { throw CryptoError.openssl(StatusCode.signAlloc, "EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(mctx) }
        var pctx: OpaquePointer?
        guard EVP_DigestSignInit(mctx, &pctx, algorithm.digest?.evp, nil, pkey) == 1 else {
            throw CryptoError.openssl(StatusCode.signInit, "EVP_DigestSignInit")
        }
        if algorithm.isPSS {
            guard let pctx, configurePSS(pctx, algorithm) else { throw CryptoError.openssl(StatusCode.signInit, "RSA-PSS parameters") }
        }
        var length = 0
        let sized = message.withUnsafeBufferPointer { EVP_DigestSign(mctx, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1 else { throw CryptoError.openssl(StatusCode.signFailed, "EVP_DigestSign (size)") }
        var sig = [UInt8](repeating: 0, count: length)
        let rc = sig.withUnsafeMutableBufferPointer { s in
            message.withUnsafeBufferPointer { m in EVP_DigestSign(mctx, s.baseAddress, &length, m.baseAddress, m.count) }
        }
        guard rc == 1 else { throw CryptoError.openssl(StatusCode.signFailed, "EVP_DigestSign") }
        sig = Array(sig.prefix(length))
        if let curve = algorithm.requiredCurve {
            return try ECDSASignatureEncoding.raw(fromDER: sig, curve: curve)
        }
        return sig
    }
}
