import COpenSSL
import Foundation

/// MD5 through OpenSSL EVP, streaming. Not for security: only for the `Content-MD5` header
/// (RFC 1864) that S3 servers check against the body they receive. A final class owns the
/// `EVP_MD_CTX`; one hasher, one thread at a time.
public final class MD5: @unchecked Sendable {
    /// Output length in bytes.
    public static let outputLength = 16
    nonisolated(unsafe) private static let evp: OpaquePointer = EVP_MD_fetch(nil, "MD5", nil) ?? EVP_md5()
    private let ctx: OpaquePointer

    public init() {
        guard let ctx = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.ctx = ctx
        guard EVP_DigestInit_ex(ctx, Self.evp, nil) == 1 else {
            fatalError("EVP_DigestInit_ex(MD5) failed: \(OpenSSLError.drainQueue())")
        }
    }

    deinit { EVP_MD_CTX_free(ctx) }

    public func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        _ = EVP_DigestUpdate(ctx, base, buffer.count)
    }

    public func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 16-byte digest; the hasher is reset and can be reused.
    public func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var len: UInt32 = 0
        _ = EVP_DigestFinal_ex(ctx, &out, &len)
        _ = EVP_DigestInit_ex(ctx, Self.evp, nil)
        return Array(out.prefix(Int(len)))
    }

    /// One-shot MD5.
    public static func digest<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        let h = MD5()
        h.update(bytes)
        return h.finalize()
    }
}
