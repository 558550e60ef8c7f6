import COpenSSL

/// A streaming hash chosen by its OpenSSL name (`MD5`, `SHA1`, `SHA2-224`, `SHA3-256`,
/// `BLAKE2B-512`, …), for formats that name their own algorithm, such as BagIt manifests
/// (`manifest-sha512.txt`). The C2PA, COSE and X.509 code use `MessageDigest`, whose
/// `DigestAlgorithm` admits only what those formats allow.
///
/// A final class owns the fetched `EVP_MD` and the `EVP_MD_CTX` and frees both in `deinit`.
public final class NamedDigest: @unchecked Sendable {
    private let md: OpaquePointer
    private let ctx: OpaquePointer

    /// nil when this OpenSSL has no digest of that name.
    public init?(openSSLName name: String) {
        guard let md = EVP_MD_fetch(nil, name, nil) else {
            _ = OpenSSLError.drainQueue()
            return nil
        }
        guard let ctx = EVP_MD_CTX_new() else {
            EVP_MD_free(md)
            return nil
        }
        guard EVP_DigestInit_ex(ctx, md, nil) == 1 else {
            EVP_MD_CTX_free(ctx)
            EVP_MD_free(md)
            _ = OpenSSLError.drainQueue()
            return nil
        }
        self.md = md
        self.ctx = ctx
    }

    deinit {
        EVP_MD_CTX_free(ctx)
        EVP_MD_free(md)
    }

    public func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        _ = EVP_DigestUpdate(ctx, base, buffer.count)
    }

    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The digest; the hasher starts again afterwards.
    public func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var len: UInt32 = 0
        _ = EVP_DigestFinal_ex(ctx, &out, &len)
        _ = EVP_DigestInit_ex(ctx, md, nil)
        return Array(out.prefix(Int(len)))
    }
}
