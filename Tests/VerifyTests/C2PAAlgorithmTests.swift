import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// Every algorithm C2PA allows, signed by our writer and verified by us and by c2pa-rs.
@Suite struct C2PAAlgorithmTests {
    @Test(arguments: [
        (COSEAlgorithm.es256, KeyKind.ec(.p256)), (.es384, .ec(.p384)), (.es512, .ec(.p521)),
        (.ps256, .rsa(bits: 2048)), (.ed25519, .ed25519),
    ])
    func algorithm(_ alg: COSEAlgorithm, _ kind: KeyKind) throws {
        let t = C2PAValidatorTests()
        let pki = try C2PAValidatorTests.pki.get()
        let key = try PrivateKey.generate(kind)
        let leaf = try CertificateBuilder(commonName: "Device \(alg.name)", organization: "Exhibit Devices", serial: 77,
                                          notBefore: Date(timeIntervalSinceNow: -86_400), notAfter: Date(timeIntervalSinceNow: 86_400 * 30),
                                          extensions: CertificateBuilder.c2paSignerExtensions)
            .issued(publicKey: key.publicKey, issuer: pki.root, issuerKey: pki.rootKey)
        let sigAlg = try #require(SignatureAlgorithm(coseIdentifier: alg.rawValue))
        var b = try t.builder(timestamp: false)
        b.signer = ManifestBuilder.Signer(algorithm: alg, certificateChain: [leaf.der, pki.root.der],
                                          sign: { try key.sign($0, algorithm: sigAlg) })
        let file = try b.signJPEG(try t.media("jpg"))
        let r = try t.validator().validate(source: MemoryByteSource(file))
        #expect(r.integrity == .intact, "\(alg): \(r.failure)")
        #expect(r.trust == .trusted)
        #expect(r.signer?.algorithm == sigAlg.rawValue)
        let flipped = try t.validator().validate(source: MemoryByteSource(t.flip(file, at: try #require(t.index(of: Array("TITLE-MARKER".utf8), in: file)))))
        #expect(flipped.failureCodes == ["claimSignature.mismatch"])
        let agree = C2PAReferenceAgreementTests()
        if let ref = try agree.reference(file, mime: "image/jpeg", anchorsPEM: pki.root.pem) {
            #expect(ref.state == "Trusted", "\(alg): c2pa-rs \(ref.failure) \(ref.error ?? "")")
        }
    }
}
