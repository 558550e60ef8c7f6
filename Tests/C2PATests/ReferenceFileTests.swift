@testable import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

/// Parses files signed by c2pa-python (c2pa-rs) and recomputes every hash they carry.
@Suite struct ReferenceFileTests {
    struct Parsed {
        let file: [UInt8]
        let location: ManifestLocation
        let store: ManifestStore
        let manifest: Manifest
        let claim: Claim
        let verdict: [String: Any]
    }

    func parse(_ name: String, bmff: Bool) throws -> Parsed? {
        guard let file = try Fixtures.bytes(name), let verdict = try Fixtures.json(name + ".json") else {
            print(Fixtures.skipMessage)
            return nil
        }
        let src = MemoryByteSource(file)
        let lookup = bmff ? try BMFFContainer.manifest(in: src) : try JPEGContainer.manifest(in: src)
        guard case .found(let loc) = lookup else {
            Issue.record("no store in \(name): \(lookup)")
            return nil
        }
        let store = try ManifestStore(parsing: loc.storeBytes)
        let m = try #require(store.activeManifest)
        let claimBox = try #require(m.claimBox)
        let claim = try Claim(label: try #require(claimBox.label), bytes: try #require(m.claimBytes))
        return Parsed(file: file, location: loc, store: store, manifest: m, claim: claim, verdict: verdict)
    }

    func checkHashedURIs(_ p: Parsed) throws {
        #expect(!p.claim.assertionReferences.isEmpty)
        for ref in p.claim.assertionReferences {
            let box = try #require(JUMBFURI.resolve(ref.url, in: p.store, relativeTo: p.manifest), "\(ref.url)")
            #expect(MessageDigest.sha256(Array(box.hashedBytes)) == ref.hash, "\(ref.url)")
            // The whole box (with its header) must NOT match: the header is outside the hash.
            #expect(MessageDigest.sha256(Array(box.bytes)) != ref.hash)
        }
        let sigBox = JUMBFURI.resolve(p.claim.signature, in: p.store, relativeTo: p.manifest)
        #expect(sigBox?.description?.typeUUID == C2PABoxType.signature)
    }

    @Test func jpegStoreAndHashesMatchReference() throws {
        guard let p = try parse("signed.jpg", bmff: false) else { return }
        #expect(p.manifest.label == p.verdict["active_manifest"] as? String)
        #expect(p.claim.version == 2)
        #expect(p.claim.claimGeneratorInfo?["name"]?.textValue == "exhibit-fixtures")
        try checkHashedURIs(p)
        let box = try #require(p.manifest.assertion(labelled: DataHashAssertion.label))
        let dh = try DataHashAssertion(cbor: try #require(try Manifest.cborContent(of: box)))
        let span = try #require(p.location.span)
        #expect(dh.exclusions == [.init(start: UInt64(span.lowerBound), length: UInt64(span.count))])
        #expect(p.location.ranges.allSatisfy { $0.count <= 65_537 })
        #expect(try dh.computeHash(over: MemoryByteSource(p.file), algorithm: .sha256) == dh.hash)
        // One media byte flipped outside the exclusion changes the hash.
        var flipped = p.file
        flipped[flipped.count - 10] ^= 0x01
        #expect(try dh.computeHash(over: MemoryByteSource(flipped), algorithm: .sha256) != dh.hash)
        // Re-serialising the assertion gives the stored bytes (our writer matches c2pa-rs's order).
        #expect(DataHashAssertion.label == box.label)
        #expect(dh.cbor.encoded() == Array(box.contentBoxes(ofType: "cbor")[0].payload))
    }

    @Test func mp4StoreAndBMFFHashMatchReference() throws {
        guard let p = try parse("signed.mp4", bmff: true) else { return }
        #expect(p.manifest.label == p.verdict["active_manifest"] as? String)
        try checkHashedURIs(p)
        let box = try #require(p.manifest.assertions.first { $0.label?.hasPrefix("c2pa.hash.bmff") == true })
        let bh = try BMFFHashAssertion(label: try #require(box.label), cbor: try #require(try Manifest.cborContent(of: box)))
        #expect(bh.version == 3)
        #expect(bh.exclusions == BMFFHashAssertion.defaultExclusions)
        let src = MemoryByteSource(p.file)
        let expected = try #require(bh.hash)
        #expect(try bh.computeHash(over: src, algorithm: .sha256) == expected)
        // Without the offset markers (v1 rules) the hash differs: markers are part of v2/v3.
        var v1 = bh
        v1.version = 1
        #expect(try v1.computeHash(over: src, algorithm: .sha256) != expected)
        // The uuid box sits right after ftyp.
        let boxes = try BMFFBox.parse(src)
        #expect(boxes[0].type == "ftyp")
        #expect(boxes[1].userType == BMFFBox.c2paUserType)
        #expect(p.location.ranges == [boxes[1].range])
        #expect(p.location.merkleOffset == 0)
        // Our encoding of the assertion equals the stored bytes.
        #expect(bh.cbor.encoded() == Array(box.contentBoxes(ofType: "cbor")[0].payload))
    }

    @Test func ingredientStoreHasTwoManifestsActiveLast() throws {
        guard let p = try parse("signed_ingredient.jpg", bmff: false) else { return }
        #expect(p.store.manifests.count == 2)
        #expect(p.manifest.label == p.verdict["active_manifest"] as? String)
        #expect(p.store.manifests[0].label != p.manifest.label)
        try checkHashedURIs(p)
        // The ingredient's own claim parses and its hashed URIs resolve inside it.
        let first = p.store.manifests[0]
        let c0 = try Claim(label: try #require(first.claimBox?.label), bytes: try #require(first.claimBytes))
        try checkHashedURIs(Parsed(file: p.file, location: p.location, store: p.store, manifest: first, claim: c0,
                                   verdict: p.verdict))
    }

    @Test func coseSignatureVerifiesWithLeafKey() throws {
        guard let p = try parse("signed.jpg", bmff: false), let dir = try Fixtures.directory() else { return }
        let cose = try COSESign1(parsing: try #require(p.manifest.signatureBytes))
        #expect(cose.tagged)
        #expect(cose.algorithm == .es256)
        let chainPEM = try String(contentsOf: dir.appendingPathComponent("chain.pem"), encoding: .utf8)
        #expect(cose.x5chain == pemCertificates(chainPEM))
        #expect(cose.signature.count == 64)
        let tbs = cose.toBeSigned(payload: try #require(p.manifest.claimBytes))
        let msg = dir.appendingPathComponent("tbs.bin"), sig = dir.appendingPathComponent("sig.bin")
        try Data(tbs).write(to: msg)
        try Data(cose.signature).write(to: sig)
        let out = try Fixtures.run(["verify", dir.appendingPathComponent("chain.pem").path, msg.path, sig.path])
        #expect(String(decoding: out, as: UTF8.self).contains("verified"))
        // A flipped claim byte does not verify.
        var bad = tbs
        bad[bad.count - 3] ^= 0x01
        try Data(bad).write(to: msg)
        #expect(throws: FixtureError.self) {
            try Fixtures.run(["verify", dir.appendingPathComponent("chain.pem").path, msg.path, sig.path])
        }
        // Re-encoding the parsed message gives the stored bytes.
        #expect(cose.encoded() == Array(try #require(p.manifest.signatureBytes)))
    }
}
