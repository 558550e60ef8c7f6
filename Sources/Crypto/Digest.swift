import Foundation
import COpenSSL

/// A message-digest algorithm available through OpenSSL EVP.
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    case sha256, sha384, sha512

    /// Output length in bytes.
    public var outputLength: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The C2PA / COSE spelling of the algorithm name (`"sha256"`, …).
    public init?(c2paName: String) {
        self.init(rawValue: c2paName.lowercased())
    }

    /// The EVP_MD, fetched once per process: OpenSSL 3 would otherwise fetch the legacy
    /// `EVP_sha256()` implicitly (locks and name lookups) on every digest init.
    var evp: OpaquePointer {
        switch self {
        case .sha256: FetchedDigests.shared.sha256
        case .sha384: FetchedDigests.shared.sha384
        case .sha512: FetchedDigests.shared.sha512
        }
    }
}

/// Explicitly fetched digest implementations (never freed: they live as long as the process).
private final class FetchedDigests: @unchecked Sendable {
    static let shared = FetchedDigests()
    let sha256: OpaquePointer
    let sha384: OpaquePointer
    let sha512: OpaquePointer

    private init() {
        sha256 = EVP_MD_fetch(nil, "SHA2-256", nil) ?? EVP_sha256()
        sha384 = EVP_MD_fetch(nil, "SHA2-384", nil) ?? EVP_sha384()
        sha512 = EVP_MD_fetch(nil, "SHA2-512", nil) ?? EVP_sha512()
    }
}

/// A streaming hash over OpenSSL EVP (SHA-NI where the CPU has it).
///
/// A final class owns the `EVP_MD_CTX` and frees it in `deinit`. Not thread-safe: one hasher,
/// one thread at a time.
public final class MessageDigest: @unchecked Sendable {
    public let algorithm: DigestAlgorithm
    private let context: EVPDigestContext

    public init(_ algorithm: DigestAlgorithm = .sha256) {
        self.algorithm = algorithm
        context = EVPDigestContext(algorithm.evp, name: algorithm.rawValue)
    }

    /// Feeds bytes from a raw buffer.
    public func update(_ buffer: UnsafeRawBufferPointer) { context.update(buffer) }

    /// Feeds any contiguous byte collection.
    public func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Finishes and returns the digest; the hasher is reset and can be reused.
    public func finalize() -> [UInt8] { context.finalize() }

    /// One-shot digest.
    public static func digest<Bytes: ContiguousBytes>(_ bytes: Bytes, _ algorithm: DigestAlgorithm = .sha256) -> [UInt8] {
        let h = MessageDigest(algorithm)
        h.update(bytes)
        return h.finalize()
    }

    /// One-shot SHA-256.
    public static func sha256<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        digest(bytes, .sha256)
    }
}

/// One `EVP_MD_CTX` (owned: freed in `deinit`) over a fetched `EVP_MD`; the shared body of
/// `MessageDigest` and `MD5`.
final class EVPDigestContext {
    private let md: OpaquePointer
    private let ctx: OpaquePointer

    init(_ md: OpaquePointer, name: String) {
        self.md = md
        guard let ctx = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.ctx = ctx
        guard EVP_DigestInit_ex(ctx, md, nil) == 1 else {
            fatalError("EVP_DigestInit_ex(\(name)) failed: \(OpenSSLError.drainQueue())")
        }
    }

    deinit { EVP_MD_CTX_free(ctx) }

    func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        _ = EVP_DigestUpdate(ctx, base, buffer.count)
    }

    /// The digest; the context is reset for reuse.
    func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var len: UInt32 = 0
        _ = EVP_DigestFinal_ex(ctx, &out, &len)
        _ = EVP_DigestInit_ex(ctx, md, nil)
        return Array(out.prefix(Int(len)))
    }
}
