import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// Ingredient validation against c2pa-rs (c2pa-python): a parent JPEG and MP4 signed with a
/// signed JPEG as ingredient (its manifest copied into the parent's store), tampered inside the
/// ingredient manifest and in the reference to it (tests/peers/ingredient_fixtures.py). On
/// every file our integrity/trust and failure codes equal c2pa-rs's active-manifest failures
/// plus its ingredient-delta failures.
@Suite struct C2PAIngredientAgreementTests {
    struct PeerFile: Decodable {
        let name: String
        let mime: String
        let description: String
        let state: String
        let success: [String]
        let informational: [String]
        let failure: [String]
        let deltaFailure: [String]
        let error: String?
    }

    struct PeerRun: Decodable {
        let files: [PeerFile]
        let ingredientLabel: String
        let c2paRs: String
    }

    /// Runs the peer script into a fresh directory; nil when there is no Python venv.
    func makeFixtures() throws -> (dir: URL, run: PeerRun)? {
        guard let python = C2PAReferenceAgreementTests.python else { return nil }
        let t = C2PAValidatorTests()
        let pki = try C2PAValidatorTests.pki.get()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-ingredients-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = { (name: String) in dir.appendingPathComponent(name) }
        try (pki.leaf.pem + pki.root.pem).write(to: file("chain.pem"), atomically: true, encoding: .utf8)
        try pki.leafKey.pemPKCS8.write(to: file("key.pem"), atomically: true, encoding: .utf8)
        try pki.root.pem.write(to: file("anchors.pem"), atomically: true, encoding: .utf8)
        // A second signer under a root that is no anchor: the untrusted ingredient.
        let start = Date(timeIntervalSinceNow: -86_400), end = Date(timeIntervalSinceNow: 86_400 * 365)
        let otherRootKey = try PrivateKey.generate(.ec(.p256)), otherKey = try PrivateKey.generate(.ec(.p256))
        let otherRoot = try CertificateBuilder(commonName: "Other Root", serial: 11, notBefore: start, notAfter: end,
                                               extensions: CertificateBuilder.rootCAExtensions).selfSigned(key: otherRootKey)
        let other = try CertificateBuilder(commonName: "Other Device", organization: "Elsewhere", serial: 12, notBefore: start,
                                           notAfter: end, extensions: CertificateBuilder.c2paSignerExtensions)
            .issued(publicKey: otherKey.publicKey, issuer: otherRoot, issuerKey: otherRootKey)
        try (other.pem + otherRoot.pem).write(to: file("other-chain.pem"), atomically: true, encoding: .utf8)
        try otherKey.pemPKCS8.write(to: file("other-key.pem"), atomically: true, encoding: .utf8)
        try Data(try t.media("jpg")).write(to: file("plain.jpg"))
        try Data(try t.media("mp4")).write(to: file("plain.mp4"))
        let data = try PeerScript.run(python, script: "ingredient_fixtures.py", [
            file("out").path, file("chain.pem").path, file("key.pem").path, file("anchors.pem").path,
            file("plain.jpg").path, file("plain.mp4").path, file("other-chain.pem").path, file("other-key.pem").path])
        return (file("out"), try JSONDecoder().decode(PeerRun.self, from: data))
    }

    /// The failure code each tamper must produce (on both sides), so agreement on an empty
    /// set cannot pass for a tampered file.
    static let keyFailure: [String: String] = [
        "ingredient-claim-flip": "ingredient.manifest.mismatch",
        "ingredient-signature-flip": "claimSignature.mismatch",
        "ingredient-assertion-flip": "assertion.hashedURI.mismatch",
        "ingredient-hasheduri-flip": "ingredient.manifest.mismatch",
        "ingredient-manifest-missing": "ingredient.manifest.missing",
        "nested-grandchild-signature-flip": "claimSignature.mismatch",
    ]

    @Test func ingredientVerdictsAgreeWithC2paRs() throws {
        guard let (dir, run) = try makeFixtures() else { print("no Python venv with c2pa-python: skipped"); return }
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let v = try C2PAValidatorTests().validator()
        let agreement = C2PAReferenceAgreementTests()
        #expect(run.files.count == 12, "\(run.files.map(\.name))")
        var untrustedChecked = false
        var tamperedChecked = 0
        for f in run.files {
            let r = try v.validate(path: dir.appendingPathComponent(f.name).path)
            print("ingredients \(f.name): \(r.integrity)/\(r.trust) \(r.failureCodes) | c2pa-rs \(f.state) \(f.failure)")
            #expect(f.error == nil, "\(f.name): c2pa-rs \(f.error ?? "")")
            #expect(agreement.ours(r) == f.state, "\(f.name): ours \(r.integrity)/\(r.trust) \(r.failureCodes), c2pa-rs \(f.state) \(f.failure)")
            #expect(Set(r.failureCodes) == Set(f.failure), "\(f.name): ours \(r.failureCodes), c2pa-rs \(f.failure)")
            // Both name the same number of ingredient manifests as validated (a nested one whose
            // result the parent's ingredient assertion recorded is no delta).
            let validated = "ingredient.manifest.validated"
            #expect(r.codes.filter { $0 == validated }.count == f.success.filter { $0 == validated }.count,
                    "\(f.name): \(validated) ours \(r.codes), c2pa-rs \(f.success)")
            // The active manifest's own signature and binding stay good on every file.
            #expect(r.codes.contains("claimSignature.validated") && r.trust == .trusted, "\(f.name)")
            #expect(r.signer?.subject.contains("Device 7") == true, "\(f.name): the signer reported is the active one")
            if f.name.hasPrefix("untrusted-ingredient.") {
                // The ingredient's signer is outside our anchors, and the ingredient assertion
                // recorded that when it was added: no delta, so nothing is reported again.
                let direct = try v.validate(path: dir.appendingPathComponent("child-untrusted.jpg").path)
                #expect(direct.failureCodes.contains("signingCredential.untrusted") && direct.trust == .untrusted)
                #expect(r.integrity == .intact && r.trust == .trusted && f.state == "Trusted", "\(f.name)")
                #expect(!r.failureCodes.contains("signingCredential.untrusted"), "\(f.name): recorded failure repeated")
                untrustedChecked = true
            } else if f.name.hasPrefix("parent.") || f.name.hasPrefix("nested.") {
                #expect(r.integrity == .intact && f.state == "Trusted", "\(f.name)")
                #expect(r.codes.contains("ingredient.manifest.validated"), "\(f.name)")
                // The ingredient's own signature codes were recorded when it was added: not repeated.
                let ingredientSig = JUMBFURI.absolute(manifest: run.ingredientLabel, path: "c2pa.signature")
                #expect(!r.success.contains { $0.url == ingredientSig }, "\(f.name): recorded ingredient codes repeated")
            } else {
                let tamper = try #require(Self.keyFailure.first { f.name.hasPrefix($0.key) }, "\(f.name): unknown tamper")
                #expect(r.integrity == .tampered, "\(f.name)")
                #expect(r.failureCodes.contains(tamper.value) && f.failure.contains(tamper.value),
                        "\(f.name): \(tamper.value) expected on both sides")
                // The failure is about the ingredient, not the active manifest.
                #expect(!f.deltaFailure.isEmpty, "\(f.name): c2pa-rs reports it as an ingredient delta")
                tamperedChecked += 1
            }
        }
        #expect(tamperedChecked == 8 && untrustedChecked, "tampered files compared: \(tamperedChecked)")
    }
}
