import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// The ingredient walk on stores built box by box: references that match, mismatch, are
/// missing or legacy; cycles and over-deep chains end (never loop); codes recorded in the
/// ingredient assertion are not repeated. Claim signatures here are not COSE (each ingredient
/// claim reports `claimSignature.mismatch`): these tests are about the walk, the peer test
/// (C2PAIngredientAgreementTests) about real signed files.
@Suite struct C2PAIngredientTests {
    /// One manifest: an assertion per ingredient CBOR (`c2pa.ingredient.v3`, `__1`, …), a v2
    /// claim whose hashed URIs match them, and a signature box that is not COSE.
    func manifest(_ label: String, ingredients: [(label: String, cbor: CBOR)] = []) -> JUMBFNode {
        let assertions = ingredients.map { JUMBFNode.superbox(typeUUID: C2PABoxType.cbor, label: $0.label, children: [.cbor($0.cbor)]) }
        let refs = zip(ingredients, assertions).map { i, a in
            HashedURI(url: "self#jumbf=c2pa.assertions/\(i.label)", hash: MessageDigest.sha256(Array(a.encoded().dropFirst(8))))
        }
        let claim = ClaimV2Builder(instanceID: "xmp:iid:\(label)", generatorName: "test", manifestLabel: label, createdAssertions: refs)
        return .superbox(typeUUID: C2PABoxType.manifest, label: label, children: [
            .superbox(typeUUID: C2PABoxType.assertionStore, label: "c2pa.assertions", children: assertions),
            .superbox(typeUUID: C2PABoxType.claim, label: "c2pa.claim.v2", children: [.cbor(claim.cbor)]),
            .superbox(typeUUID: C2PABoxType.signature, label: "c2pa.signature", children: [.cbor(.bytes([1, 2, 3]))]),
        ])
    }

    /// The hash a reference to this manifest carries: its superbox's payload.
    func boxHash(_ m: JUMBFNode) -> [UInt8] { MessageDigest.sha256(Array(m.encoded().dropFirst(8))) }

    func v3(_ relationship: String = "parentOf", to target: (label: String, hash: [UInt8])?,
            recorded: [(code: String, url: String)]? = []) -> CBOR {
        var pairs: [(String, CBOR)] = [("relationship", .text(relationship))]
        if let target {
            pairs.append(("activeManifest", HashedURI(url: "self#jumbf=/c2pa/\(target.label)", alg: "sha256", hash: target.hash).cbor))
        }
        if let recorded {
            let failure = CBOR.array(recorded.map { .textMap([("code", .text($0.code)), ("url", .text($0.url))]) })
            pairs.append(("validationResults", .textMap([("activeManifest", .textMap([
                ("success", .array([])), ("informational", .array([])), ("failure", failure)]))])))
        }
        return .textMap(pairs)
    }

    /// Runs the walk of the store's last (active) manifest.
    func walk(_ manifests: [JUMBFNode]) throws -> (intact: Bool, report: C2PAReport) {
        let bytes = JUMBFNode.superbox(typeUUID: C2PABoxType.store, label: "c2pa", children: manifests).encoded()
        let store = try ManifestStore(parsing: bytes)
        let active = try #require(store.activeManifest)
        let claim = try Claim(label: "c2pa.claim.v2", bytes: try #require(active.claimBytes))
        var r = C2PAReport(integrity: .intact)
        let intact = try C2PAValidatorTests().validator().checkIngredients(claim: claim, manifest: active, store: store, report: &r)
        return (intact, r)
    }

    func count(_ code: String, _ r: C2PAReport) -> Int { r.codes.filter { $0 == code }.count }

    @Test func matchingMismatchingAndMissingReferences() throws {
        let b = manifest("urn:c2pa:b")
        let good = try walk([b, manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient.v3", v3(to: ("urn:c2pa:b", boxHash(b))))])])
        #expect(good.report.success.contains { $0.code == "ingredient.manifest.validated" && $0.url == "self#jumbf=/c2pa/urn:c2pa:b" })
        // The ingredient's claim was verified too (its signature box is no COSE_Sign1).
        #expect(good.report.failure.map(\.code) == ["claimSignature.mismatch"])
        #expect(good.report.failure.first?.url == JUMBFURI.absolute(manifest: "urn:c2pa:b", path: "c2pa.signature"))
        #expect(!good.intact)

        var wrong = boxHash(b)
        wrong[0] ^= 1
        let bad = try walk([b, manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient.v3", v3(to: ("urn:c2pa:b", wrong)))])])
        #expect(bad.report.failureCodes.contains("ingredient.manifest.mismatch"))
        #expect(count("ingredient.manifest.validated", bad.report) == 0)

        let gone = try walk([manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient.v3", v3(to: ("urn:c2pa:gone", wrong)))])])
        #expect(gone.report.failure == [.init(code: "ingredient.manifest.missing", url: "urn:c2pa:gone",
                                              explanation: "ingredient: urn:c2pa:gone is missing")])
        #expect(!gone.intact)
    }

    /// A reference recorded as failing when the ingredient was added is no delta: not reported
    /// again and not held against the file (c2pa-rs's ingredientDeltas). A relative recorded
    /// URL is read against the ingredient's manifest.
    @Test func recordedStatusesAreNotRepeated() throws {
        let b = manifest("urn:c2pa:b")
        let recorded = [(code: "claimSignature.mismatch", url: "self#jumbf=c2pa.signature")]
        let w = try walk([b, manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient.v3", v3(to: ("urn:c2pa:b", boxHash(b)), recorded: recorded))])])
        #expect(w.report.failure.isEmpty, "\(w.report.failure)")
        #expect(w.report.codes == ["ingredient.manifest.validated"])
        #expect(w.intact)
    }

    @Test func noProvenanceAndLegacyReferences() throws {
        let none = try walk([manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient.v3", v3(to: nil, recorded: nil)),
                                                                  ("c2pa.ingredient.v3__1", v3("inputTo", to: nil, recorded: nil))])])
        // parentOf without a manifest: informational; inputTo: nothing (spec 15.11.3.3, c2pa-rs).
        #expect(none.report.informational.map(\.code) == ["ingredient.unknownProvenance"])
        #expect(none.report.informational.first?.url == JUMBFURI.absolute(manifest: "urn:c2pa:a", path: "c2pa.assertions/c2pa.ingredient.v3"))
        #expect(none.intact)

        // A v1 ingredient whose c2pa_manifest hash covers the claim bytes (writers before C2PA 1.3):
        // accepted without `ingredient.manifest.validated`, as c2pa-rs does.
        let b = manifest("urn:c2pa:b")
        let store = try ManifestStore(parsing: JUMBFNode.superbox(typeUUID: C2PABoxType.store, label: "c2pa", children: [b]).encoded())
        let claimHash = MessageDigest.sha256(Array(try #require(store.manifests.first?.claimBytes)))
        let v1 = CBOR.textMap([("dc:title", .text("old")), ("dc:format", .text("image/jpeg")), ("instanceID", .text("xmp:iid:1")),
                               ("relationship", .text("parentOf")),
                               ("c2pa_manifest", HashedURI(url: "self#jumbf=/c2pa/urn:c2pa:b", hash: claimHash).cbor)])
        let legacy = try walk([b, manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient", v1)])])
        #expect(!legacy.report.codes.contains { $0.hasPrefix("ingredient.manifest") }, "\(legacy.report.codes)")
        #expect(legacy.report.failureCodes == ["claimSignature.mismatch"])
    }

    @Test func malformedIngredientAssertions() throws {
        let b = manifest("urn:c2pa:b")
        let cases: [(CBOR, String)] = [
            (v3("sisterOf", to: ("urn:c2pa:b", boxHash(b))), "ingredient.badField"),
            (v3(to: ("urn:c2pa:b", boxHash(b)), recorded: nil), "ingredient v3 must have validation results"),
            (.textMap([("relationship", .text("parentOf")), ("activeManifest", .text("not a hashed uri"))]), "ingredient.badField"),
            (.array([]), "ingredient.notAMap"),
        ]
        for (cbor, explanation) in cases {
            let w = try walk([b, manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient.v3", cbor)])])
            #expect(w.report.failure.contains { $0.code == "assertion.ingredient.malformed" && $0.explanation == explanation },
                    "\(explanation): \(w.report.failure)")
            #expect(!w.intact)
        }
    }

    /// A → B → {A, B}: both back references are reported as cyclic and the walk ends.
    @Test func cyclesEnd() throws {
        let zero = [UInt8](repeating: 0, count: 32)
        let b = manifest("urn:c2pa:b", ingredients: [("c2pa.ingredient.v3", v3(to: ("urn:c2pa:a", zero))),
                                                     ("c2pa.ingredient.v3__1", v3(to: ("urn:c2pa:b", zero)))])
        let w = try walk([b, manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient.v3", v3(to: ("urn:c2pa:b", boxHash(b))))])])
        #expect(w.report.failure.filter { $0.explanation == "ingredient cannot be cyclic" }.count == 2, "\(w.report.failure)")
        #expect(count("ingredient.manifest.validated", w.report) == 1)
    }

    /// A → B, A → C, B → D, C → D: D is verified from both and walked once; no false cycle.
    @Test func sharedIngredientIsNoCycle() throws {
        let d = manifest("urn:c2pa:d")
        let ref = { (m: JUMBFNode, l: String) in v3(to: (l, self.boxHash(m))) }
        let b = manifest("urn:c2pa:b", ingredients: [("c2pa.ingredient.v3", ref(d, "urn:c2pa:d"))])
        let c = manifest("urn:c2pa:c", ingredients: [("c2pa.ingredient.v3", ref(d, "urn:c2pa:d"))])
        let a = manifest("urn:c2pa:a", ingredients: [("c2pa.ingredient.v3", ref(b, "urn:c2pa:b")),
                                                     ("c2pa.ingredient.v3__1", ref(c, "urn:c2pa:c"))])
        let w = try walk([d, b, c, a])
        #expect(count("ingredient.manifest.validated", w.report) == 4)
        #expect(!w.report.codes.contains("assertion.ingredient.malformed"))
        #expect(count("claimSignature.mismatch", w.report) == 4) // b, c, and d twice
    }

    /// A chain deeper than the cap: followed to the cap, then one `general.error`.
    @Test func deepChainsAreCapped() throws {
        var chain: [JUMBFNode] = [manifest("urn:c2pa:m30")]
        for i in stride(from: 29, through: 0, by: -1) {
            let next = chain[0]
            chain.insert(manifest("urn:c2pa:m\(i)", ingredients: [("c2pa.ingredient.v3", v3(to: ("urn:c2pa:m\(i + 1)", boxHash(next))))]), at: 0)
        }
        let w = try walk(chain.reversed()) // the active manifest (m0) last
        #expect(count("ingredient.manifest.validated", w.report) == C2PAValidator.maximumIngredientDepth)
        #expect(w.report.failure.filter { $0.code == "general.error" }.count == 1)
    }

    /// Many references to one manifest: each is checked (as c2pa-rs does) up to the cap, then
    /// one `general.error`; the manifest's own ingredients are walked once.
    @Test func referenceCountIsCapped() throws {
        let b = manifest("urn:c2pa:b")
        let refs = (0..<300).map { i in (label: i == 0 ? "c2pa.ingredient.v3" : "c2pa.ingredient.v3__\(i)",
                                         cbor: v3("componentOf", to: ("urn:c2pa:b", boxHash(b)))) }
        let w = try walk([b, manifest("urn:c2pa:a", ingredients: refs)])
        #expect(count("ingredient.manifest.validated", w.report) == C2PAValidator.maximumIngredientChecks)
        #expect(w.report.failure.filter { $0.code == "general.error" }.count == 1)
    }

    @Test func ingredientLabelsAndFields() throws {
        #expect(IngredientAssertion.version(ofLabel: "c2pa.ingredient") == 1)
        #expect(IngredientAssertion.version(ofLabel: "c2pa.ingredient.v2") == 2)
        #expect(IngredientAssertion.version(ofLabel: "c2pa.ingredient.v3__2") == 3)
        #expect(IngredientAssertion.version(ofLabel: "c2pa.ingredient__1") == 1)
        #expect(IngredientAssertion.version(ofLabel: "c2pa.ingredients") == nil)
        #expect(IngredientAssertion.version(ofLabel: "c2pa.thumbnail.ingredient.jpeg") == nil)
        #expect(throws: IngredientError.unsupportedVersion(4)) {
            try IngredientAssertion(label: "c2pa.ingredient.v4", cbor: .textMap([("relationship", .text("parentOf"))]))
        }
        #expect(throws: IngredientError.missingField("dc:title")) {
            try IngredientAssertion(label: "c2pa.ingredient.v2", cbor: .textMap([("relationship", .text("parentOf"))]))
        }
        let v2 = try IngredientAssertion(label: "c2pa.ingredient.v2", cbor: .textMap([
            ("dc:title", .text("t")), ("dc:format", .text("image/jpeg")), ("relationship", .text("componentOf")),
            ("c2pa_manifest", HashedURI(url: "self#jumbf=/c2pa/urn:c2pa:x", hash: [1]).cbor),
            ("validationStatus", .array([.textMap([("code", .text("claimSignature.validated"))])]))]))
        #expect(v2.relationship == .componentOf && v2.manifestReference?.url == "self#jumbf=/c2pa/urn:c2pa:x")
        #expect(v2.recordedStatuses == [.init(code: "claimSignature.validated", url: nil)])
        #expect(JUMBFURI.manifestLabel(of: "self#jumbf=/c2pa/urn:c2pa:x/c2pa.signature") == "urn:c2pa:x")
        #expect(JUMBFURI.manifestLabel(of: "self#jumbf=c2pa.assertions/c2pa.hash.data") == nil)
    }
}
