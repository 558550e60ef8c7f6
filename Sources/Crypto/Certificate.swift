import Foundation
import COpenSSL
import Ground

/// An X.509 certificate parsed by OpenSSL. A final class owns the `X509` and frees it in `deinit`.
///
/// The DER is kept exactly as read (`der`); nothing is re-encoded before hashing or verifying.
/// Read-only after init, so it may be shared across threads.
public final class Certificate: @unchecked Sendable, Equatable, Hashable, CustomStringConvertible {
    let x509: OpaquePointer
    /// The certificate's DER bytes, exactly as given.
    public let der: [UInt8]

    /// Parses one DER certificate; rejects trailing bytes.
    public convenience init(der: [UInt8]) throws(CryptoError) {
        let x = try decodeDER(der, what: "Certificate", free: { X509_free($0) }) { p, len in d2i_X509(nil, p, len) }
        self.init(owning: x, der: der)
    }

    /// Takes ownership of one reference to `x509`.
    init(owning x509: OpaquePointer, der: [UInt8]? = nil) {
        self.x509 = x509
        self.der = der ?? encodeDER({ i2d_X509(x509, $0) }) ?? []
    }

    /// Wraps a borrowed `X509` by taking a new reference.
    static func retaining(_ x509: OpaquePointer) -> Certificate {
        _ = exhibit_X509_up_ref(x509)
        return Certificate(owning: x509)
    }

    deinit { X509_free(x509) }

    /// Every `CERTIFICATE` block in `text`, in order. Throws `pem.noCertificate` when there is none
    /// and `pem.malformed` when a block does not decode.
    public static func parsePEM(_ text: String) throws(CryptoError) -> [Certificate] {
        let bio = try MemoryBIO(Array(text.utf8))
        var out: [Certificate] = []
        while let x = PEM_read_bio_X509(bio.bio, nil, nil, nil) {
            out.append(Certificate(owning: x))
        }
        let err = ERR_peek_last_error()
        let reason = ERR_GET_REASON(err)
        ERR_clear_error()
        // Reaching the end of the input is the normal way out of the loop.
        if err != 0 && reason != PEM_R_NO_START_LINE {
            throw CryptoError(StatusCode.pemMalformed, "a CERTIFICATE block does not decode")
        }
        guard !out.isEmpty else { throw CryptoError(StatusCode.pemNoCertificate, "no CERTIFICATE block found") }
        return out
    }

    /// PEM text (`-----BEGIN CERTIFICATE-----`).
    public var pem: String {
        let b64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(b64)\n-----END CERTIFICATE-----\n"
    }

    /// The subject public key. Nil only for a key type OpenSSL cannot load.
    public var publicKey: PublicKey? {
        guard let pkey = X509_get_pubkey(x509) else { ERR_clear_error(); return nil }
        return PublicKey(owning: pkey)
    }

    /// The SubjectPublicKeyInfo DER.
    public var spkiDER: [UInt8] {
        guard let spki = X509_get_X509_PUBKEY(x509) else { return [] }
        return encodeDER({ i2d_X509_PUBKEY(spki, $0) }) ?? []
    }

    /// SHA-256 of the SubjectPublicKeyInfo DER (the project's key fingerprint).
    public var keyFingerprint: ContentID { ContentID.sha256(of: spkiDER) }

    /// Lowercase hex SHA-256 of the whole certificate DER.
    public var sha256Fingerprint: String { Hex.encode(MessageDigest.sha256(der)) }

    public static func == (a: Certificate, b: Certificate) -> Bool { a.der == b.der }
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
    public var description: String { "Certificate(\(subject))" }
}
