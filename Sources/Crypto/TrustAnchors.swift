import COpenSSL
import Foundation
import Ground

/// A list of trust anchors: root or intermediate certificates a chain may end at.
///
/// Holds one `X509_STORE` built at init and only read afterwards; OpenSSL locks the store
/// internally, so chain validations may share it from many threads.
public struct TrustAnchors: Sendable {
    public let certificates: [Certificate]
    let store: AnchorStore

    public init(_ certificates: [Certificate]) throws(CryptoError) {
        self.certificates = certificates
        self.store = try AnchorStore(certificates)
    }

    /// No anchors: every chain is untrusted (`noAnchors`).
    public static var none: TrustAnchors { TrustAnchors(noAnchors: ()) }

    private init(noAnchors: Void) {
        self.certificates = []
        self.store = AnchorStore(empty: ())
    }

    /// Every certificate in a PEM text.
    public init(pem: String) throws(CryptoError) {
        try self.init(Certificate.parsePEM(pem))
    }

    /// Every certificate in a PEM file.
    public init(pemFile path: String) throws(CryptoError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CryptoError(StatusCode.anchorsUnreadable, "cannot read \(path)")
        }
        try self.init(pem: String(decoding: data, as: UTF8.self))
    }

    public var isEmpty: Bool { certificates.isEmpty }
}

/// Owns the `X509_STORE` behind `TrustAnchors`.
final class AnchorStore: @unchecked Sendable {
    let store: OpaquePointer?

    init(_ certificates: [Certificate]) throws(CryptoError) {
        guard let store = X509_STORE_new() else { throw CryptoError.openssl(StatusCode.anchorsAlloc, "X509_STORE_new") }
        self.store = store
        for cert in certificates {
            guard X509_STORE_add_cert(store, cert.x509) == 1 else {
                // A duplicate anchor is harmless; anything else is not.
                let err = ERR_peek_last_error()
                if ERR_GET_REASON(err) == X509_R_CERT_ALREADY_IN_HASH_TABLE { ERR_clear_error(); continue }
                throw CryptoError.openssl(StatusCode.anchorsAdd, "X509_STORE_add_cert")
            }
        }
    }

    init(empty: Void) { store = nil }

    deinit { if let store { X509_STORE_free(store) } }
}
