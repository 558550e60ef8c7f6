import C2PA
import Crypto
import Ground

/// The signature over `custody.json`: a COSE_Sign1 message (RFC 9052 §4.2) in `custody.cose`.
///
///     COSE_Sign1 = #6.18([ protected: bstr .cbor {1: -7 (ES256), 33: x5chain (archive cert DER)},
///                          unprotected: {}, payload: nil (detached), signature: bstr (r‖s, 64 B) ])
///
/// The detached payload is the exact bytes of `custody.json`; the signed bytes are the
/// Sig_structure `["Signature1", protected, h'', custody.json]`. The archive's certificate rides
/// in the protected header (and as `archive-cert.pem` in the bag).
public enum CustodySignature {
    /// Signs `custody` with the archive key; returns the tagged COSE_Sign1 bytes.
    public static func sign(_ custody: [UInt8], with key: ArchiveKey) throws(ExportError) -> [UInt8] {
        do {
            let message = try COSESign1.sign(payload: custody, algorithm: .es256,
                                             certificateChain: [key.certificate.der]) { tbs in
                try key.privateKey.sign(tbs, algorithm: .es256)
            }
            return message.encoded()
        } catch {
            throw .archiveKey("cannot sign custody.json: \(error)")
        }
    }

    /// What checking the signature found.
    public enum Outcome: Equatable, Sendable {
        /// Valid under the key of `certificate`; `fingerprint` is its SPKI SHA-256.
        case valid(fingerprint: String)
        /// The message does not parse, names another algorithm, carries no certificate, or the
        /// signature does not verify; `code` names which.
        case invalid(code: String, detail: String)
    }

    /// Verifies `cose` over `custody`. When `expectedCertificate` is given (the bag's
    /// `archive-cert.pem`), the message's certificate must be that one.
    public static func verify(_ cose: [UInt8], over custody: [UInt8], expectedCertificate: Certificate?) -> Outcome {
        let message: COSESign1
        do { message = try COSESign1(parsing: cose) } catch {
            return .invalid(code: StatusCode.signatureMalformed, detail: "custody.cose is not a COSE_Sign1 message (\(error.code))")
        }
        guard message.algorithm == .es256 else {
            return .invalid(code: StatusCode.signatureAlgorithm, detail: "custody.cose does not use ES256")
        }
        guard let der = message.x5chain.first, let cert = try? Certificate(der: der), let key = cert.publicKey else {
            return .invalid(code: StatusCode.signatureNoCertificate, detail: "custody.cose carries no usable certificate")
        }
        if let expectedCertificate, expectedCertificate != cert {
            return .invalid(code: StatusCode.signatureCertificateMismatch,
                            detail: "custody.cose names a different certificate than archive-cert.pem")
        }
        guard key.verify(signature: message.signature, message: message.toBeSigned(payload: custody), algorithm: .es256) else {
            return .invalid(code: StatusCode.signatureInvalid, detail: "the signature over custody.json does not verify")
        }
        return .valid(fingerprint: cert.keyFingerprint.hex)
    }
}
