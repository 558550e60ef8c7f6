@testable import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

@Suite struct CertificateTests {
    @Test func opensslReqCertificateParsesWithMatchingFingerprint() throws {
        let dir = try TempDir()
        try OpenSSLCLI.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                            "-keyout", dir.path("k.pem"), "-out", dir.path("c.pem"), "-days", "30",
                            "-subj", "/C=NL/O=Interop Org/CN=Interop Device", "-set_serial", "0x0a0b0c"])
        let pem = String(decoding: try dir.read("c.pem"), as: UTF8.self)
        let certs = try Certificate.parsePEM(pem)
        #expect(certs.count == 1)
        let cert = try #require(certs.first)
        // Fingerprint per the CLI: x509 -pubkey | pkey -pubin -outform DER | dgst -sha256.
        let pubPEM = try OpenSSLCLI.run(["x509", "-in", dir.path("c.pem"), "-pubkey", "-noout"])
        let spki = try OpenSSLCLI.run(["pkey", "-pubin", "-outform", "DER"], input: pubPEM)
        let dgst = try OpenSSLCLI.run(["dgst", "-sha256", "-r"], input: spki)
        let expected = String(String(decoding: dgst, as: UTF8.self).prefix(64))
        #expect(cert.keyFingerprint.hex == expected)
        #expect(cert.spkiDER == spki)
        #expect(cert.commonName == "Interop Device")
        #expect(cert.organization == "Interop Org")
        #expect(cert.subject == "CN=Interop Device,O=Interop Org,C=NL")
        #expect(cert.isSelfIssued && cert.isSelfSigned)
        #expect(cert.serialNumberHex == "0a0b0c")
        #expect(cert.version == 3)
        #expect(cert.signatureAlgorithmOID == "1.2.840.10045.4.3.2")
        #expect(cert.publicKey?.keyType == .ec(.p256))
        let derFromCLI = try OpenSSLCLI.run(["x509", "-in", dir.path("c.pem"), "-outform", "DER"])
        #expect(cert.der == derFromCLI)
        #expect(try Certificate.parsePEM(cert.pem).first == cert)
        let days = try #require(cert.notAfter).timeIntervalSince(try #require(cert.notBefore)) / 86_400
        #expect(days == 30)
        let key = try PrivateKey(pem: String(decoding: try dir.read("k.pem"), as: UTF8.self))
        #expect(key.publicKey.spkiDER == cert.spkiDER)
    }

    @Test func derMustNotHaveTrailingBytes() throws {
        let pki = try TestPKI()
        do {
            _ = try Certificate(der: pki.leaf.der + [0x00])
            Issue.record("trailing byte accepted")
        } catch { #expect(error.code == "der.trailingBytes") }
        do {
            _ = try Certificate(der: Array(pki.leaf.der.dropLast()))
            Issue.record("truncated certificate accepted")
        } catch { #expect(error.code == "der.malformed") }
        #expect(throws: CryptoError("pem.noCertificate", "no CERTIFICATE block found")) { try Certificate.parsePEM("hello") }
    }

    @Test func builderFieldsReadBack() throws {
        let pki = try TestPKI()
        let leaf = pki.leaf
        #expect(leaf.subject == "CN=Device 1,O=Exhibit Devices,C=DE")
        #expect(leaf.issuer == "CN=Exhibit Test Intermediate,O=Exhibit,C=US")
        #expect(leaf.serialNumberHex == "123456789abc")
        #expect(leaf.notBefore == TestPKI.start)
        #expect(leaf.notAfter == Date(timeIntervalSince1970: 1_900_000_000))
        #expect(!leaf.isCA && !leaf.isSelfIssued)
        #expect(leaf.keyUsage == [.digitalSignature])
        #expect(leaf.isKeyUsageCritical == true)
        #expect(leaf.extendedKeyUsageOIDs == [OID.emailProtection, OID.documentSigning])
        #expect(leaf.hasAuthorityKeyIdentifier && leaf.hasSubjectKeyIdentifier)
        #expect(pki.root.isCA && pki.root.isSelfSigned)
        #expect(pki.root.keyUsage == [.keyCertSign, .cRLSign])
        #expect(pki.tsa.isExtendedKeyUsageCritical == true)
        #expect(pki.tsa.extendedKeyUsageOIDs == [OID.timeStamping])
        #expect(leaf.keyFingerprint.hex == Hex.encode(MessageDigest.sha256(pki.leafKey.publicKey.spkiDER)))
        // The CLI agrees the leaf is signed by the intermediate.
        let dir = try TempDir()
        try dir.write("root.pem", pki.root.pem)
        try dir.write("int.pem", pki.intermediate.pem)
        try dir.write("leaf.pem", leaf.pem)
        let out = try OpenSSLCLI.run(["verify", "-x509_strict", "-CAfile", dir.path("root.pem"), "-untrusted", dir.path("int.pem"), dir.path("leaf.pem")])
        #expect(String(decoding: out, as: UTF8.self).contains("OK"))
    }
}

@Suite struct ChainTests {
    @Test func trustedUntrustedAndPartial() throws {
        let pki = try TestPKI()
        let at = Date(timeIntervalSince1970: 1_750_000_000)
        let rootAnchors = try TrustAnchors([pki.root])
        guard case .trusted(let chain) = validateChain(leaf: pki.leaf, intermediates: [pki.intermediate], anchors: rootAnchors, at: at, purpose: .signing) else {
            Issue.record("expected trusted"); return
        }
        #expect(chain == [pki.leaf, pki.intermediate, pki.root])
        // Missing intermediate → unknown issuer.
        #expect(validateChain(leaf: pki.leaf, intermediates: [], anchors: rootAnchors, at: at, purpose: .signing).code == "unknownIssuer")
        // No anchors.
        #expect(validateChain(leaf: pki.leaf, intermediates: [pki.intermediate], anchors: try TrustAnchors([]), at: at, purpose: .signing).code == "noAnchors")
        // Another PKI's root.
        let other = try TestPKI()
        #expect(validateChain(leaf: pki.leaf, intermediates: [pki.intermediate], anchors: try TrustAnchors([other.root]), at: at, purpose: .signing).code == "unknownIssuer")
        // Intermediate as the anchor (partial chain), as c2pa-rs allows.
        guard case .trusted(let partial) = validateChain(leaf: pki.leaf, intermediates: [], anchors: try TrustAnchors([pki.intermediate]), at: at, purpose: .signing) else {
            Issue.record("expected partial chain to be trusted"); return
        }
        #expect(partial == [pki.leaf, pki.intermediate])
    }

    @Test func timeIsChecked() throws {
        let pki = try TestPKI()
        let anchors = try TrustAnchors([pki.root])
        // Leaf expires 2030-03-17 (1.9e9); root and intermediate in 2033.
        let after = Date(timeIntervalSince1970: 1_950_000_000)
        #expect(validateChain(leaf: pki.leaf, intermediates: [pki.intermediate], anchors: anchors, at: after, purpose: .signing).code == "expired")
        let before = Date(timeIntervalSince1970: 1_600_000_000)
        #expect(validateChain(leaf: pki.leaf, intermediates: [pki.intermediate], anchors: anchors, at: before, purpose: .signing).code == "notYetValid")
        #expect(validateChain(leaf: pki.leaf, intermediates: [pki.intermediate], anchors: anchors, at: nil, purpose: .signing).isTrusted)
    }

    @Test func badSignatureAndPurpose() throws {
        let pki = try TestPKI()
        let anchors = try TrustAnchors([pki.root])
        let at = Date(timeIntervalSince1970: 1_750_000_000)
        // Flip a byte in the signature value (the last bytes of the DER).
        var der = pki.leaf.der
        der[der.count - 3] ^= 0x01
        let forged = try Certificate(der: der)
        #expect(validateChain(leaf: forged, intermediates: [pki.intermediate], anchors: anchors, at: at, purpose: .signing).code == "badSignature")
        // The signer leaf is no TSA.
        #expect(validateChain(leaf: pki.leaf, intermediates: [pki.intermediate], anchors: anchors, at: at, purpose: .timestamping).code == "missingTimeStampingEKU")
        #expect(validateChain(leaf: pki.tsa, intermediates: [], anchors: anchors, at: at, purpose: .timestamping).isTrusted)
    }

    @Test func concurrentValidationsShareAnchors() throws {
        let pki = try TestPKI()
        let anchors = try TrustAnchors([pki.root])
        let at = Date(timeIntervalSince1970: 1_750_000_000)
        let leaf = pki.leaf, intermediate = pki.intermediate
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            let r = validateChain(leaf: leaf, intermediates: i % 2 == 0 ? [intermediate] : [], anchors: anchors, at: at, purpose: .signing)
            results.record(r.isTrusted == (i % 2 == 0))
        }
        #expect(results.allGood == 200)
    }

    @Test func anchorsFromPEMFile() throws {
        let pki = try TestPKI()
        let dir = try TempDir()
        try dir.write("anchors.pem", pki.root.pem + pki.intermediate.pem)
        let anchors = try TrustAnchors(pemFile: dir.path("anchors.pem"))
        #expect(anchors.certificates == [pki.root, pki.intermediate])
        #expect(throws: CryptoError.self) { try TrustAnchors(pemFile: dir.path("absent.pem")) }
    }
}

final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var good = 0
    func record(_ ok: Bool) { lock.lock(); if ok { good += 1 }; lock.unlock() }
    var allGood: Int { lock.lock(); defer { lock.unlock() }; return good }
}

extension ChainValidation {
    var code: String? { if case .untrusted(_, let code) = self { code } else { nil } }
}

@Suite struct ProfileTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func builderLeafAndTSAConform() throws {
        let pki = try TestPKI()
        #expect(pki.leaf.c2paProfileViolations(at: now) == [])
        #expect(pki.tsa.c2paProfileViolations(at: now) == [])
        let rsa = try TestPKI(leafKind: .rsa2048)
        #expect(rsa.leaf.c2paProfileViolations(at: now) == [])
    }

    @Test func rejections() throws {
        let pki = try TestPKI()
        #expect(pki.root.c2paProfileViolations(at: now).contains("selfSigned.ca"))
        #expect(pki.intermediate.c2paProfileViolations(at: now).contains("basicConstraints.isCA"))
        #expect(pki.leaf.c2paProfileViolations(at: Date(timeIntervalSince1970: 1_950_000_000)) == ["validity.notValidAtSigningTime"])

        func leaf(_ extensions: [CertificateBuilder.Extension]) throws -> Certificate {
            try CertificateBuilder(commonName: "Bad", serial: 9, notBefore: TestPKI.start, notAfter: TestPKI.end, extensions: extensions)
                .issued(publicKey: pki.leafKey.publicKey, issuer: pki.intermediate, issuerKey: pki.intermediateKey)
        }
        let base = CertificateBuilder.c2paSignerExtensions
        let noDigitalSignature = try leaf(base.map { $0.name == "keyUsage" ? .init("keyUsage", "critical,keyEncipherment") : $0 })
        #expect(noDigitalSignature.c2paProfileViolations(at: now) == ["keyUsage.noSigningBit"])
        let noKU = try leaf(base.filter { $0.name != "keyUsage" })
        #expect(noKU.c2paProfileViolations(at: now) == ["keyUsage.missing"])
        let noEKU = try leaf(base.filter { $0.name != "extendedKeyUsage" })
        #expect(noEKU.c2paProfileViolations(at: now) == ["extendedKeyUsage.missing"])
        let anyEKU = try leaf(base.map { $0.name == "extendedKeyUsage" ? .init("extendedKeyUsage", "emailProtection,anyExtendedKeyUsage") : $0 })
        #expect(anyEKU.c2paProfileViolations(at: now) == ["extendedKeyUsage.anyNotAllowed"])
        let serverOnly = try leaf(base.map { $0.name == "extendedKeyUsage" ? .init("extendedKeyUsage", "serverAuth") : $0 })
        #expect(serverOnly.c2paProfileViolations(at: now) == ["extendedKeyUsage.noAllowedPurpose"])
        let tsaPlusEmail = try leaf(base.map { $0.name == "extendedKeyUsage" ? .init("extendedKeyUsage", "timeStamping,emailProtection") : $0 })
        #expect(tsaPlusEmail.c2paProfileViolations(at: now) == ["extendedKeyUsage.invalidCombination"])
        let noAKI = try leaf(base.filter { $0.name != "authorityKeyIdentifier" })
        #expect(noAKI.c2paProfileViolations(at: now) == ["authorityKeyIdentifier.missing"])
        let caLeaf = try leaf(base.map { $0.name == "basicConstraints" ? .init("basicConstraints", "critical,CA:TRUE") : $0 })
        #expect(caLeaf.c2paProfileViolations(at: now) == ["basicConstraints.isCA"])
        let unknownCritical = try leaf(base + [.init("1.2.3.4.5.6.7", "critical,DER:0500")])
        #expect(unknownCritical.c2paProfileViolations(at: now) == ["extensions.unhandledCritical"])
    }

    @Test func selfSignedDeviceLeafWithAKIConforms() throws {
        // c2pa-rs rejects self-signed only when it is also a CA; a self-signed end-entity with an
        // AKI (pointing at itself) passes the profile and is merely untrusted.
        let key = try PrivateKey.generate(.p256)
        let cert = try CertificateBuilder(commonName: "Lone Device", serial: 5, notBefore: TestPKI.start, notAfter: TestPKI.end,
                                          extensions: CertificateBuilder.c2paSignerExtensions).selfSigned(key: key)
        #expect(cert.isSelfSigned && !cert.isCA)
        #expect(cert.c2paProfileViolations(at: now) == [])
    }

    @Test func versionOneCertificateFromCLI() throws {
        let dir = try TempDir()
        try OpenSSLCLI.run(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", dir.path("k.pem")])
        try OpenSSLCLI.run(["req", "-new", "-key", dir.path("k.pem"), "-subj", "/CN=v1", "-out", dir.path("r.csr")])
        try OpenSSLCLI.run(["x509", "-req", "-in", dir.path("r.csr"), "-signkey", dir.path("k.pem"), "-days", "1", "-out", dir.path("c.pem")])
        let cert = try #require(try Certificate.parsePEM(String(decoding: try dir.read("c.pem"), as: UTF8.self)).first)
        let v = cert.c2paProfileViolations(at: nil)
        if cert.version == 1 {
            #expect(v.contains("version.notV3"))
        }
        #expect(v.contains("keyUsage.missing"))
        #expect(v.contains("authorityKeyIdentifier.missing"))
    }
}
