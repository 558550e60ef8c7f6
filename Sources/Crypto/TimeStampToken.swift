import COpenSSL
import Foundation
import Ground

/// An RFC 3161 TimeStampToken: a CMS `ContentInfo` whose SignedData carries a `TSTInfo`.
///
/// `init(der:)` takes the token itself or a whole `TimeStampResp` (status granted), as C2PA's
/// `sigTst` (v1, a response) and `sigTst2` (v2, a token) carry them. Values are read once at
/// init; `tokenDER` keeps the token bytes for verification.
public struct TimeStampToken: Sendable {
    /// The TimeStampToken (ContentInfo) DER.
    public let tokenDER: [UInt8]
    public let genTime: Date
    public let messageImprint: (algorithm: DigestAlgorithm?, algorithmOID: String, digest: [UInt8])
    public let serialNumberHex: String
    public let policyOID: String
    /// The nonce, as lowercase hex, if the token has one.
    public let nonceHex: String?
    /// Certificates carried in the SignedData, in order.
    public let tsaCertificates: [Certificate]
    /// The carried certificate that matches the SignerInfo's identifier; nil when the token does not carry it.
    public let signerCertificate: Certificate?
    /// The SignerInfo's signed `signingTime` attribute (whole seconds), when it has exactly one.
    public let signingTime: Date?
    /// The time the token vouches for, as c2pa-rs reads it (time_stamp/verify.rs: "If there is
    /// a signed signing time attribute use it"): `signingTime` when present, else `genTime`.
    /// Certificates (the TSA's, and the C2PA signer's) are validated at this time.
    public var validationTime: Date { signingTime ?? genTime }
    /// The parsed CMS, kept for the signature check (not to be verified from two threads at once).
    let contentInfo: CMSContentInfo
    /// True when `contentInfo` was parsed without its certificates (they are `tsaCertificates`,
    /// handed to the signature check beside the CMS).
    let carriedSeparately: Bool

    public init(der: [UInt8]) throws(CryptoError) {
        try self.init(der: der, splittingCertificates: true)
    }

    /// `splittingCertificates: false` always parses the CMS whole (tests compare both paths).
    init(der: [UInt8], splittingCertificates: Bool) throws(CryptoError) {
        defer { ERR_clear_error() }
        tokenDER = try TimeStampToken.extractToken(der)
        // One CMS parse serves the TSTInfo, the certificates and, later, the signature check.
        // Each parse of the carried certificates decodes their keys (the costly part in
        // OpenSSL 3), so a token in plain DER is parsed without them and its certificates come
        // from a cache by DER (`SignedDataCertificates`); any other token is parsed whole.
        let (cms, carried) = try TimeStampToken.parseContentInfo(tokenDER, splitting: splittingCertificates)
        contentInfo = CMSContentInfo(owning: cms)
        carriedSeparately = carried != nil
        guard CMS_get0_type(cms).map({ OBJ_obj2nid($0) }) == NID_pkcs7_signed,
              CMS_get0_eContentType(cms).map({ OBJ_obj2nid($0) }) == NID_id_smime_ct_TSTInfo,
              let content = CMS_get0_content(cms)?.pointee, let data = ASN1_STRING_get0_data(content) else {
            throw CryptoError.openssl(StatusCode.tstNotTimeStampToken, "CMS_get0_content")
        }
        var cursor: UnsafePointer<UInt8>? = data
        guard let tst = d2i_TS_TST_INFO(nil, &cursor, Int(ASN1_STRING_length(content))) else {
            throw CryptoError.openssl(StatusCode.tstNotTimeStampToken, "d2i_TS_TST_INFO")
        }
        defer { TS_TST_INFO_free(tst) }
        guard let time = TS_TST_INFO_get_time(tst), let gen = TimeStampToken.generalizedTime(time) else {
            throw CryptoError(StatusCode.tstBadGenTime, "genTime does not parse")
        }
        genTime = gen
        guard let imprint = TS_TST_INFO_get_msg_imprint(tst), let algo = TS_MSG_IMPRINT_get_algo(imprint),
              let msg = TS_MSG_IMPRINT_get_msg(imprint) else {
            throw CryptoError(StatusCode.tstBadImprint, "messageImprint missing")
        }
        var obj: OpaquePointer?
        X509_ALGOR_get0(&obj, nil, nil, algo)
        let oid = dottedOID(obj)
        let digest = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(msg), count: Int(ASN1_STRING_length(msg))))
        messageImprint = (DigestAlgorithm(oid: oid), oid, digest)
        serialNumberHex = TimeStampToken.integerHex(TS_TST_INFO_get_serial(tst)) ?? ""
        policyOID = dottedOID(TS_TST_INFO_get_policy_id(tst))
        nonceHex = TimeStampToken.integerHex(TS_TST_INFO_get_nonce(tst))

        var certs: [Certificate] = carried ?? []
        if carried == nil, let sk = CMS_get1_certs(cms) {
            for i in 0..<exhibit_sk_X509_num(sk) {
                if let x = exhibit_sk_X509_value(sk, i) { certs.append(Certificate.retaining(x)) }
            }
            exhibit_sk_X509_pop_free(sk)
        }
        tsaCertificates = certs
        var signer: Certificate?
        var signedAt: Date?
        if let infos = CMS_get0_SignerInfos(cms), exhibit_sk_CMS_SignerInfo_num(infos) > 0,
           let si = exhibit_sk_CMS_SignerInfo_value(infos, 0) {
            signer = certs.first { CMS_SignerInfo_cert_cmp(si, $0.x509) == 0 }
            signedAt = TimeStampToken.signingTimeAttribute(si)
        }
        signerCertificate = signer
        signingTime = signedAt
    }

    /// The token's CMS, parsed without its certificates when `SignedDataCertificates` can split
    /// them off and each parses (then also returned, from the cache), else parsed whole.
    static func parseContentInfo(_ token: [UInt8], splitting: Bool) throws(CryptoError) -> (OpaquePointer, [Certificate]?) {
        if splitting, let split = SignedDataCertificates.split(token) {
            var certs: [Certificate] = []
            for der in split.certificates {
                guard let c = CarriedCertificateCache.certificate(der) else { break }
                certs.append(c)
            }
            if certs.count == split.certificates.count,
               let cms = try? decodeDER(split.stripped, what: "TimeStampToken", free: { CMS_ContentInfo_free($0) }, { p, len in
                   d2i_CMS_ContentInfo(nil, p, len)
               }) {
                return (cms, certs)
            }
            ERR_clear_error()
        }
        let cms = try decodeDER(token, what: "TimeStampToken", free: { CMS_ContentInfo_free($0) }) { p, len in
            d2i_CMS_ContentInfo(nil, p, len)
        }
        return (cms, nil)
    }

    /// The token inside a TimeStampResp, or the bytes themselves when they already are a token.
    static func extractToken(_ der: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let resp = try? decodeDER(der, what: "TimeStampResp", free: { TS_RESP_free($0) }, { p, len in d2i_TS_RESP(nil, p, len) }) else {
            ERR_clear_error()
            return der
        }
        defer { TS_RESP_free(resp) }
        let status = TS_RESP_get_status_info(resp).flatMap { TS_STATUS_INFO_get0_status($0) }.map { ASN1_INTEGER_get($0) } ?? -1
        guard status == 0 || status == 1 else {
            throw CryptoError(StatusCode.tstNotGranted, "TimeStampResp status \(status)")
        }
        guard let token = TS_RESP_get_token(resp), let bytes = encodeDER({ i2d_PKCS7(token, $0) }) else {
            throw CryptoError(StatusCode.tstNoToken, "TimeStampResp carries no token")
        }
        return bytes
    }

    static func integerHex(_ value: UnsafePointer<ASN1_INTEGER>?) -> String? {
        guard let value, let bn = ASN1_INTEGER_to_BN(value, nil) else { return nil }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return nil }
        defer { exhibit_OPENSSL_free(hex) }
        return String(cString: hex).lowercased()
    }

    /// The PKCS #9 signingTime signed attribute (UTCTime or GeneralizedTime), nil when absent,
    /// not single-valued (CMS allows one value) or unreadable.
    static func signingTimeAttribute(_ si: OpaquePointer) -> Date? {
        let index = CMS_signed_get_attr_by_NID(si, NID_pkcs9_signingTime, -1)
        guard index >= 0, CMS_signed_get_attr_by_NID(si, NID_pkcs9_signingTime, index) < 0,
              let attr = CMS_signed_get_attr(si, index), X509_ATTRIBUTE_count(attr) == 1,
              let value = X509_ATTRIBUTE_get0_type(attr, 0) else { return nil }
        let type = value.pointee.type
        guard type == V_ASN1_UTCTIME || type == V_ASN1_GENERALIZEDTIME, let time = value.pointee.value.utctime else { return nil }
        var tm = tm()
        guard ASN1_TIME_to_tm(time, &tm) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm)))
    }

    /// The genTime's text (TimeStampToken+GeneralizedTime.swift has the accepted form).
    static func generalizedTime(_ t: UnsafePointer<ASN1_GENERALIZEDTIME>) -> Date? {
        let length = Int(ASN1_STRING_length(t))
        guard length <= 25, let data = ASN1_STRING_get0_data(t) else { return nil }
        return generalizedTime(text: UnsafeBufferPointer(start: data, count: length))
    }
}

/// Owns a parsed `CMS_ContentInfo` and frees it in `deinit`.
final class CMSContentInfo: @unchecked Sendable {
    let pointer: OpaquePointer
    init(owning pointer: OpaquePointer) { self.pointer = pointer }
    deinit { CMS_ContentInfo_free(pointer) }
}
