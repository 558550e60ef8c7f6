@testable import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

@Suite struct TimeStampTests {
    let data = Array("the COSE signature bytes a C2PA sigTst2 token time-stamps".utf8)

    /// A throwaway `openssl ts -reply` TSA in `dir`, using the PKI's TSA key and certificate.
    func cliTSA(_ pki: TestPKI, in dir: TempDir) throws {
        try dir.write("tsa.pem", pki.tsa.pem)
        try dir.write("tsa.key", pki.tsaKey.pemPKCS8)
        try dir.write("root.pem", pki.root.pem)
        try dir.write("serial", "2a\n")
        try dir.write("tsa.cnf", """
            [ tsa ]
            default_tsa = tsa_config1
            [ tsa_config1 ]
            serial = \(dir.path("serial"))
            crypto_device = builtin
            signer_cert = \(dir.path("tsa.pem"))
            signer_key = \(dir.path("tsa.key"))
            signer_digest = sha256
            default_policy = 1.2.3.4.1
            digests = sha256, sha384, sha512
            accuracy = secs:1
            ordering = yes
            tsa_name = no
            ess_cert_id_chain = no
            ess_cert_id_alg = sha256

            """)
    }

    @Test func cliTokenParsesAndVerifies() throws {
        let pki = try TestPKI()
        let dir = try TempDir()
        try cliTSA(pki, in: dir)
        try dir.write("data", data)
        try OpenSSLCLI.run(["ts", "-query", "-data", dir.path("data"), "-sha256", "-cert", "-out", dir.path("req.tsq")])
        try OpenSSLCLI.run(["ts", "-reply", "-config", dir.path("tsa.cnf"), "-queryfile", dir.path("req.tsq"), "-out", dir.path("resp.tsr")])
        try OpenSSLCLI.run(["ts", "-reply", "-in", dir.path("resp.tsr"), "-token_out", "-out", dir.path("token.der")])
        let before = Date()
        let fromResponse = try TimeStampToken(der: try dir.read("resp.tsr"))
        let token = try TimeStampToken(der: try dir.read("token.der"))
        #expect(fromResponse.tokenDER == token.tokenDER)
        #expect(token.tokenDER == (try dir.read("token.der")))
        #expect(token.serialNumberHex == "2b")   // the CLI increments the serial file first
        #expect(token.policyOID == "1.2.3.4.1")
        #expect(token.messageImprint.algorithm == .sha256)
        #expect(token.messageImprint.algorithmOID == OID.sha256)
        #expect(token.messageImprint.digest == MessageDigest.sha256(data))
        #expect(abs(token.genTime.timeIntervalSince(before)) < 120)
        #expect(token.tsaCertificates == [pki.tsa])
        #expect(token.signerCertificate == pki.tsa)

        let anchors = try TrustAnchors([pki.root])
        #expect(token.verify(imprintOf: data, anchors: anchors) == .valid(genTime: token.genTime))
        var other = data; other[0] ^= 1
        #expect(token.verify(imprintOf: other, anchors: anchors).invalidCode == "imprintMismatch")
        let stranger = try TestPKI()
        #expect(token.verify(imprintOf: data, anchors: try TrustAnchors([stranger.root])).untrustedCode == "unknownIssuer")
        #expect(token.verify(imprintOf: data, anchors: try TrustAnchors([])).untrustedCode == "noAnchors")
    }

    @Test func tokenWithoutCertificates() throws {
        let pki = try TestPKI()
        let dir = try TempDir()
        try cliTSA(pki, in: dir)
        try dir.write("data", data)
        // No `-cert`: the TSA leaves its certificate out of the token.
        try OpenSSLCLI.run(["ts", "-query", "-data", dir.path("data"), "-sha384", "-out", dir.path("req.tsq")])
        try OpenSSLCLI.run(["ts", "-reply", "-config", dir.path("tsa.cnf"), "-queryfile", dir.path("req.tsq"), "-out", dir.path("resp.tsr")])
        let token = try TimeStampToken(der: try dir.read("resp.tsr"))
        #expect(token.tsaCertificates.isEmpty && token.signerCertificate == nil)
        #expect(token.messageImprint.algorithm == .sha384)
        #expect(token.verify(imprintOf: data, anchors: try TrustAnchors([pki.root])).invalidCode == "signerCertificateMissing")
        // With the TSA certificate itself as an anchor the signer is found and trusted (partial chain).
        #expect(token.verify(imprintOf: data, anchors: try TrustAnchors([pki.tsa])) == .valid(genTime: token.genTime))
    }

    @Test func flippedBytesInTheTokenFail() throws {
        let pki = try TestPKI()
        let tsa = TimeStampAuthority(certificate: pki.tsa, key: pki.tsaKey)
        let der = try tsa.token(imprintOf: data, at: Date(timeIntervalSince1970: 1_750_000_000.5), serial: 7)
        let anchors = try TrustAnchors([pki.root])
        // Flip the imprint inside the signed TSTInfo: the imprint no longer matches and, were it
        // recomputed, the signature would not either.
        let imprint = MessageDigest.sha256(data)
        let at = try #require(firstIndex(of: imprint, in: der))
        var flipped = der; flipped[at] ^= 0x01
        let result = TimeStampToken.verify(der: flipped, imprintOf: data, anchors: anchors)
        #expect(result.invalidCode == "imprintMismatch")
        // A token whose imprint is consistent but whose signed content changed: flip the serial.
        let tok = try TimeStampToken(der: der)
        #expect(tok.serialNumberHex == "07")
        var flipContent = der
        let serialPattern: [UInt8] = [0x02, 0x01, 0x07]
        let sp = try #require(firstIndex(of: serialPattern, in: der))
        flipContent[sp + 2] = 0x08
        #expect(TimeStampToken.verify(der: flipContent, imprintOf: data, anchors: anchors).invalidCode == "badSignature")
        #expect(TimeStampToken.verify(der: Array(der.prefix(40)), imprintOf: data, anchors: anchors).invalidCode == "malformed")
        #expect(TimeStampToken.verify(der: der + [0], imprintOf: data, anchors: anchors).invalidCode == "malformed")
    }

    @Test func ourTokensVerifyUnderOpenSSL() throws {
        let pki = try TestPKI()
        let tsa = TimeStampAuthority(certificate: pki.tsa, key: pki.tsaKey)
        let when = Date(timeIntervalSince1970: 1_750_000_000.25)
        let der = try tsa.token(imprintOf: data, at: when, serial: 0x0102_0304)
        let token = try TimeStampToken(der: der)
        #expect(token.genTime == when)
        #expect(token.serialNumberHex == "01020304")
        #expect(token.verify(imprintOf: data, anchors: try TrustAnchors([pki.root])) == .valid(genTime: when))

        let dir = try TempDir()
        try dir.write("data", data)
        try dir.write("token.der", der)
        try dir.write("root.pem", pki.root.pem)
        // `openssl ts -verify` checks the chain at the current time; our PKI is valid now.
        let out = try OpenSSLCLI.run(["ts", "-verify", "-data", dir.path("data"), "-in", dir.path("token.der"), "-token_in",
                                      "-CAfile", dir.path("root.pem")])
        #expect(String(decoding: out, as: UTF8.self).contains("Verification: OK"))
        try dir.write("resp.tsr", try tsa.response(imprintOf: data, at: when, serial: 9, digest: .sha384))
        let out2 = try OpenSSLCLI.run(["ts", "-verify", "-data", dir.path("data"), "-in", dir.path("resp.tsr"), "-CAfile", dir.path("root.pem")])
        #expect(String(decoding: out2, as: UTF8.self).contains("Verification: OK"))
        // And it fails for other data.
        try dir.write("other", Array("other".utf8))
        let (status, _, _) = try OpenSSLCLI.runStatus(["ts", "-verify", "-data", dir.path("other"), "-in", dir.path("token.der"), "-token_in",
                                                       "-CAfile", dir.path("root.pem")])
        #expect(status != 0)
    }

    @Test func tokenWithIntermediateChain() throws {
        let pki = try TestPKI()
        // A TSA issued by the intermediate, which the token carries.
        let key = try PrivateKey.generate(.p384)
        let cert = try CertificateBuilder(commonName: "TSA 2", serial: 77, notBefore: TestPKI.start, notAfter: TestPKI.end,
                                          extensions: CertificateBuilder.timeStampingExtensions)
            .issued(publicKey: key.publicKey, issuer: pki.intermediate, issuerKey: pki.intermediateKey)
        let tsa = TimeStampAuthority(certificate: cert, key: key, chain: [pki.intermediate])
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try TimeStampToken(der: try tsa.token(imprintOf: data, at: when, serial: 1, digest: .sha512))
        #expect(token.tsaCertificates.count == 2)
        #expect(token.signerCertificate == cert)
        #expect(token.messageImprint.algorithm == .sha512)
        #expect(token.verify(imprintOf: data, anchors: try TrustAnchors([pki.root])) == .valid(genTime: when))
        // The signer leaf is not a TSA: a token it signs is untrusted for time-stamping.
        let fake = TimeStampAuthority(certificate: pki.leaf, key: pki.leafKey, chain: [pki.intermediate])
        // OpenSSL's TS_RESP_CTX refuses a signer without the critical timeStamping EKU.
        #expect(throws: CryptoError.self) { try fake.token(imprintOf: data, at: when, serial: 2) }
    }

    func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}

extension TimeStampValidation {
    var invalidCode: String? { if case .invalid(let code, _) = self { code } else { nil } }
    var untrustedCode: String? { if case .untrusted(_, _, let code) = self { code } else { nil } }
}

/// RFC 3161 §2.4.2 genTime: `YYYYMMDDhhmmss[.f]Z`, every field bounded, other X.680 forms refused.
@Suite struct GeneralizedTimeTests {
    func parse(_ s: String) -> Date? { TimeStampToken.generalizedTime(text: Array(s.utf8)) }

    @Test func acceptedForms() {
        #expect(parse("20240806215337Z") == Date(timeIntervalSince1970: 1_722_981_217))
        #expect(parse("20240806215337.5Z") == Date(timeIntervalSince1970: 1_722_981_217.5))
        #expect(parse("20240806215337.125Z") == Date(timeIntervalSince1970: 1_722_981_217.125))
        #expect(parse("20240806215337.500Z") == Date(timeIntervalSince1970: 1_722_981_217.5)) // trailing zeros tolerated
        #expect(parse("19700101000000Z") == Date(timeIntervalSince1970: 0))
        #expect(parse("20240229235959Z") == Date(timeIntervalSince1970: 1_709_251_199)) // leap day
        #expect(parse("20991231235959.123456789Z") != nil)
    }

    @Test func refusedForms() {
        for s in ["20240806216337Z",      // minute 63 (c2pa-rs's CA_ct.jpg)
                  "20240806245337Z", "20240806215360Z", "20241306215337Z", "20240006215337Z",
                  "20240832215337Z", "20230229120000Z", "20240431120000Z", "20240806215337",
                  "202408062153Z", "2024080621Z", "20240806215337+0100", "20240806215337.Z",
                  "20240806215337,5Z", "20240806215337.1234567890Z", "2024080621533Z7", "2024O806215337Z", ""] {
            #expect(parse(s) == nil, "\(s)")
        }
    }
}
