import Foundation
import COpenSSL

/// The outcome of checking an RFC 3161 token against the bytes it should time-stamp.
public enum TimeStampValidation: Sendable, Equatable {
    /// Imprint matches, CMS signature verifies, the TSA chains to a TSA anchor at genTime and
    /// carries id-kp-timeStamping.
    case valid(genTime: Date)
    /// Imprint and signature are fine, but the TSA is not trusted (`code` as in `ChainValidation`).
    case untrusted(genTime: Date, reason: String, code: String)
    /// The token does not time-stamp these bytes: `imprintMismatch`, `unsupportedImprintAlgorithm`,
    /// `badSignature`, `signerCertificateMissing` (token without certificates, signer not among the
    /// anchors), `malformed`.
    case invalid(code: String, reason: String)
}

extension TimeStampToken {
    /// Parses `der` (token or response) and verifies it; a token that does not parse is `.invalid(malformed)`.
    public static func verify(der: [UInt8], imprintOf data: [UInt8], anchors: TrustAnchors) -> TimeStampValidation {
        do {
            return try TimeStampToken(der: der).verify(imprintOf: data, anchors: anchors)
        } catch {
            return .invalid(code: "malformed", reason: error.description)
        }
    }

    /// Checks (a) the message imprint equals hash(`data`) with the token's own algorithm, (b) the
    /// CMS SignedData signature (signed attributes, content digest) with the signer certificate
    /// from the token or, failing that, from `anchors`, (c) the TSA chain to `anchors` at genTime,
    /// (d) the TSA certificate's id-kp-timeStamping EKU.
    public func verify(imprintOf data: [UInt8], anchors: TrustAnchors) -> TimeStampValidation {
        verify(imprintOf: data, anchors: anchors) { leaf, intermediates, time in
            validateChain(leaf: leaf, intermediates: intermediates, anchors: anchors, at: time, purpose: .timestamping)
        }
    }

    /// As `verify(imprintOf:anchors:)`, with the caller's chain validation for step (c) (a
    /// verifier caches it per TSA certificate; the signature and imprint are always checked).
    public func verify(imprintOf data: [UInt8], anchors: TrustAnchors,
                       chain: (_ leaf: Certificate, _ intermediates: [Certificate], _ at: Date) -> ChainValidation) -> TimeStampValidation {
        guard let algorithm = messageImprint.algorithm else {
            return .invalid(code: "unsupportedImprintAlgorithm", reason: "imprint hash \(messageImprint.algorithmOID) is not SHA-2")
        }
        guard MessageDigest.digest(data, algorithm) == messageImprint.digest else {
            return .invalid(code: "imprintMismatch", reason: "message imprint does not match the \(algorithm.rawValue) of the data")
        }
        let signer: Certificate
        switch verifySignature(extraCertificates: anchors.certificates) {
        case .success(let s): signer = s
        case .failure(let e): return .invalid(code: e.code, reason: e.reason)
        }
        let intermediates = tsaCertificates.filter { $0 != signer }
        // The TSA chain at the time the token vouches for (signingTime, else genTime; c2pa-rs).
        switch chain(signer, intermediates, validationTime) {
        case .trusted: return .valid(genTime: genTime)
        case .untrusted(let reason, let code): return .untrusted(genTime: genTime, reason: reason, code: code)
        }
    }

    /// Verifies the SignedData signature only and returns the signer certificate.
    func verifySignature(extraCertificates: [Certificate]) -> Result<Certificate, CryptoError> {
        defer { ERR_clear_error() }
        let cms = contentInfo.pointer
        guard let extra = exhibit_sk_X509_new_null() else { return .failure(CryptoError("malformed", "out of memory")) }
        defer { exhibit_sk_X509_free(extra) }
        // Certificates split off the CMS at parse time come first, where CMS_verify would
        // have found them inside the token.
        if carriedSeparately { for cert in tsaCertificates { _ = exhibit_sk_X509_push(extra, cert.x509) } }
        for cert in extraCertificates { _ = exhibit_sk_X509_push(extra, cert.x509) }
        if signerCertificate == nil {
            // Without the signer's certificate no signature can be checked: say so, rather than "bad".
            guard let infos = CMS_get0_SignerInfos(cms), exhibit_sk_CMS_SignerInfo_num(infos) == 1,
                  let si = exhibit_sk_CMS_SignerInfo_value(infos, 0) else {
                return .failure(CryptoError("malformed", "expected exactly one SignerInfo"))
            }
            guard extraCertificates.contains(where: { CMS_SignerInfo_cert_cmp(si, $0.x509) == 0 }) else {
                return .failure(CryptoError("signerCertificateMissing", "the token carries no signer certificate and no anchor matches its SignerInfo"))
            }
        }
        // The chain is validated separately (at genTime, against TSA anchors); here only the signature.
        let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)
        guard CMS_verify(cms, extra, nil, nil, nil, flags) == 1 else {
            return .failure(CryptoError("badSignature", OpenSSLError("CMS_verify").description))
        }
        guard let signers = CMS_get0_signers(cms) else { return .failure(CryptoError("badSignature", "no signer certificate")) }
        defer { exhibit_sk_X509_free(signers) }
        guard exhibit_sk_X509_num(signers) == 1, let x = exhibit_sk_X509_value(signers, 0) else {
            return .failure(CryptoError("malformed", "expected exactly one signer"))
        }
        return .success(Certificate.retaining(x))
    }
}
