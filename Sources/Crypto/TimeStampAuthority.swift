import COpenSSL
import Foundation
import Ground

/// A real RFC 3161 time-stamping authority over OpenSSL's `TS_RESP_CTX`, for the capture
/// generator and tests. Tokens verify under `openssl ts -verify`.
///
/// Each call builds its own request and response context, so one authority may issue from
/// several threads.
public struct TimeStampAuthority: Sendable {
    public let certificate: Certificate
    public let key: PrivateKey
    /// Further certificates to carry in the token (intermediates), leaf excluded.
    public let chain: [Certificate]
    /// The TSA policy OID written into every token.
    public let policyOID: String

    public init(certificate: Certificate, key: PrivateKey, chain: [Certificate] = [], policyOID: String = "1.3.6.1.4.1.57264.2.1") {
        self.certificate = certificate
        self.key = key
        self.chain = chain
        self.policyOID = policyOID
    }

    /// A TimeStampToken (CMS ContentInfo DER) over hash(`data`), stamped `time`, with `serial`.
    public func token(imprintOf data: [UInt8], at time: Date, serial: UInt64,
                      digest: DigestAlgorithm = .sha256) throws(CryptoError) -> [UInt8] {
        try TimeStampToken.extractToken(response(imprintOf: data, at: time, serial: serial, digest: digest))
    }

    /// The whole TimeStampResp DER (status granted + token), as C2PA v1 `sigTst` stores it.
    public func response(imprintOf data: [UInt8], at time: Date, serial: UInt64,
                         digest: DigestAlgorithm = .sha256) throws(CryptoError) -> [UInt8] {
        defer { ERR_clear_error() }
        let request = try TimeStampAuthority.requestDER(imprint: MessageDigest.digest(data, digest), digest: digest)
        let bio = try MemoryBIO(request)
        guard let ctx = TS_RESP_CTX_new() else { throw CryptoError.openssl(StatusCode.tsaAlloc, "TS_RESP_CTX_new") }
        defer { TS_RESP_CTX_free(ctx) }
        guard let policy = OBJ_txt2obj(policyOID, 1) else { throw CryptoError.openssl(StatusCode.tsaPolicy, "OBJ_txt2obj(\(policyOID))") }
        defer { ASN1_OBJECT_free(policy) }
        guard TS_RESP_CTX_set_signer_cert(ctx, certificate.x509) == 1,
              TS_RESP_CTX_set_signer_key(ctx, key.pkey) == 1,
              TS_RESP_CTX_set_def_policy(ctx, policy) == 1,
              TS_RESP_CTX_set_signer_digest(ctx, EVP_sha256()) == 1,
              TS_RESP_CTX_set_ess_cert_id_digest(ctx, EVP_sha256()) == 1,
              TS_RESP_CTX_add_md(ctx, EVP_sha256()) == 1,
              TS_RESP_CTX_add_md(ctx, EVP_sha384()) == 1,
              TS_RESP_CTX_add_md(ctx, EVP_sha512()) == 1,
              TS_RESP_CTX_set_clock_precision_digits(ctx, 3) == 1 else {
            throw CryptoError.openssl(StatusCode.tsaConfig, "TS_RESP_CTX setup")
        }
        if !chain.isEmpty {
            guard let sk = exhibit_sk_X509_new_null() else { throw CryptoError.openssl(StatusCode.tsaAlloc, "sk_X509_new_null") }
            defer { exhibit_sk_X509_free(sk) }
            for cert in chain { _ = exhibit_sk_X509_push(sk, cert.x509) }
            guard TS_RESP_CTX_set_certs(ctx, sk) == 1 else { throw CryptoError.openssl(StatusCode.tsaConfig, "TS_RESP_CTX_set_certs") }
        }
        var clock = StampClock(time: time, serial: serial)
        let resp: OpaquePointer? = withUnsafeMutablePointer(to: &clock) { clockPtr in
            TS_RESP_CTX_set_serial_cb(ctx, { _, data in
                guard let data, let serial = ASN1_INTEGER_new() else { return nil }
                let value = data.assumingMemoryBound(to: StampClock.self).pointee.serial
                guard ASN1_INTEGER_set_uint64(serial, value) == 1 else { ASN1_INTEGER_free(serial); return nil }
                return serial
            }, clockPtr)
            TS_RESP_CTX_set_time_cb(ctx, { _, data, sec, usec in
                guard let data, let sec, let usec else { return 0 }
                let t = data.assumingMemoryBound(to: StampClock.self).pointee.time.timeIntervalSince1970
                let whole = t.rounded(.down)
                sec.pointee = Int(whole)
                usec.pointee = Int(((t - whole) * 1_000_000).rounded(.down))
                return 1
            }, clockPtr)
            return TS_RESP_create_response(ctx, bio.bio)
        }
        guard let resp else { throw CryptoError.openssl(StatusCode.tsaRespond, "TS_RESP_create_response") }
        defer { TS_RESP_free(resp) }
        let status = TS_RESP_get_status_info(resp).flatMap { TS_STATUS_INFO_get0_status($0) }.map { ASN1_INTEGER_get($0) } ?? -1
        guard status == 0 else { throw CryptoError.openssl(StatusCode.tsaRejected, "TimeStampResp status \(status)") }
        guard let der = encodeDER({ i2d_TS_RESP(resp, $0) }) else { throw CryptoError.openssl(StatusCode.tsaEncode, "i2d_TS_RESP") }
        return der
    }

    /// A DER TimeStampReq (v1, certReq TRUE, no nonce) for `imprint`.
    static func requestDER(imprint: [UInt8], digest: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
        guard let req = TS_REQ_new(), let msg = TS_MSG_IMPRINT_new(), let algo = X509_ALGOR_new() else {
            throw CryptoError.openssl(StatusCode.tsaAlloc, "TS_REQ_new")
        }
        defer { TS_REQ_free(req); TS_MSG_IMPRINT_free(msg); X509_ALGOR_free(algo) }
        let nid: Int32 = switch digest {
        case .sha256: NID_sha256
        case .sha384: NID_sha384
        case .sha512: NID_sha512
        }
        var imprint = imprint
        guard X509_ALGOR_set0(algo, OBJ_nid2obj(nid), V_ASN1_NULL, nil) == 1,
              TS_MSG_IMPRINT_set_algo(msg, algo) == 1,
              TS_MSG_IMPRINT_set_msg(msg, &imprint, Int32(imprint.count)) == 1,
              TS_REQ_set_version(req, 1) == 1,
              TS_REQ_set_msg_imprint(req, msg) == 1,
              TS_REQ_set_cert_req(req, 1) == 1,
              let der = encodeDER({ i2d_TS_REQ(req, $0) }) else {
            throw CryptoError.openssl(StatusCode.tsaRequest, "building TimeStampReq")
        }
        return der
    }
}

/// What the serial and time callbacks read while one response is built.
private struct StampClock {
    var time: Date
    var serial: UInt64
}
