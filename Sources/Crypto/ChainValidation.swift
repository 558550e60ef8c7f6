import Foundation
import COpenSSL

/// What a certificate chain is being validated for.
public enum ChainPurpose: Sendable {
    /// A C2PA claim signer. No OpenSSL purpose is set (as in c2pa-rs); the C2PA profile is a
    /// separate check (`Certificate.c2paProfileViolations`).
    case signing
    /// An RFC 3161 TSA: the leaf must also carry the id-kp-timeStamping EKU.
    case timestamping
}

/// The outcome of a chain validation.
public enum ChainValidation: Sendable, Equatable {
    /// The leaf chains to an anchor; `chain` runs leaf first, anchor last.
    case trusted(chain: [Certificate])
    /// It does not. `code` is stable: `noAnchors`, `unknownIssuer`, `expired`, `notYetValid`,
    /// `badSignature`, `invalidCA`, `invalidPurpose`, `missingTimeStampingEKU`, `pathLength`,
    /// `unhandledCriticalExtension`, `invalidExtension`, `internal`, or `x509.<n>` for the rest.
    case untrusted(reason: String, code: String)

    public var isTrusted: Bool { if case .trusted = self { true } else { false } }
}

/// Validates `leaf` up to one of `anchors` with OpenSSL's `X509_STORE_CTX`.
///
/// - `X509_V_FLAG_X509_STRICT` and `X509_V_FLAG_PARTIAL_CHAIN`, as c2pa-rs does: an anchor may be
///   an intermediate, and the chain is trusted as soon as it reaches any anchor.
/// - `time` given: validity is checked at that instant (`X509_VERIFY_PARAM_set_time`); nil:
///   no validity check at all (`X509_V_FLAG_NO_CHECK_TIME`), as c2pa-rs does without a
///   trusted timestamp (its profile check then tests the leaf against the current time).
///
/// Safe to call from many threads at once.
public func validateChain(leaf: Certificate, intermediates: [Certificate], anchors: TrustAnchors,
                          at time: Date?, purpose: ChainPurpose) -> ChainValidation {
    guard !anchors.isEmpty, let store = anchors.store.store else {
        return .untrusted(reason: "no trust anchors configured", code: "noAnchors")
    }
    defer { ERR_clear_error() }
    guard let untrusted = exhibit_sk_X509_new_null() else { return .untrusted(reason: "out of memory", code: "internal") }
    defer { exhibit_sk_X509_free(untrusted) }   // the certificates stay owned by their Swift objects
    for cert in intermediates { _ = exhibit_sk_X509_push(untrusted, cert.x509) }

    guard let ctx = X509_STORE_CTX_new() else { return .untrusted(reason: "out of memory", code: "internal") }
    defer { X509_STORE_CTX_free(ctx) }
    guard X509_STORE_CTX_init(ctx, store, leaf.x509, untrusted) == 1, let param = X509_STORE_CTX_get0_param(ctx) else {
        return .untrusted(reason: OpenSSLError("X509_STORE_CTX_init").description, code: "internal")
    }
    var flags = UInt(X509_V_FLAG_X509_STRICT) | UInt(X509_V_FLAG_PARTIAL_CHAIN)
    if let time {
        X509_VERIFY_PARAM_set_time(param, time_t(time.timeIntervalSince1970.rounded(.down)))
    } else {
        flags |= UInt(X509_V_FLAG_NO_CHECK_TIME)
    }
    _ = X509_VERIFY_PARAM_set_flags(param, flags)

    guard X509_verify_cert(ctx) == 1 else {
        let err = X509_STORE_CTX_get_error(ctx)
        let text = X509_verify_cert_error_string(Int(err)).map { String(cString: $0) } ?? "error \(err)"
        return .untrusted(reason: text, code: chainErrorCode(err))
    }
    var chain: [Certificate] = []
    if let sk = X509_STORE_CTX_get0_chain(ctx) {
        for i in 0..<exhibit_sk_X509_num(sk) {
            if let x = exhibit_sk_X509_value(sk, i) { chain.append(Certificate.retaining(x)) }
        }
    }
    if purpose == .timestamping, !(leaf.extendedKeyUsageOIDs ?? []).contains(OID.timeStamping) {
        return .untrusted(reason: "TSA certificate lacks the id-kp-timeStamping extended key usage", code: "missingTimeStampingEKU")
    }
    return .trusted(chain: chain)
}

/// Maps an `X509_V_ERR_*` value to a stable code.
func chainErrorCode(_ err: Int32) -> String {
    switch err {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
         X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
         X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        "unknownIssuer"
    case X509_V_ERR_CERT_HAS_EXPIRED: "expired"
    case X509_V_ERR_CERT_NOT_YET_VALID: "notYetValid"
    case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
         X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
        "badSignature"
    case X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN: "invalidCA"
    case X509_V_ERR_INVALID_PURPOSE: "invalidPurpose"
    case X509_V_ERR_PATH_LENGTH_EXCEEDED: "pathLength"
    case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION: "unhandledCriticalExtension"
    case X509_V_ERR_INVALID_EXTENSION, X509_V_ERR_MISSING_AUTHORITY_KEY_IDENTIFIER,
         X509_V_ERR_MISSING_SUBJECT_KEY_IDENTIFIER, X509_V_ERR_EMPTY_SUBJECT_ALT_NAME,
         X509_V_ERR_CA_BCONS_NOT_CRITICAL, X509_V_ERR_EC_KEY_EXPLICIT_PARAMS:
        "invalidExtension"
    case X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD, X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD: "invalidValidityField"
    default: "x509.\(err)"
    }
}
