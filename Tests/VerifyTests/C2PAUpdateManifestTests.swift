import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// Update manifests (`c2um`) made with our writers over a parent signed with our writers: bound
/// by the parent's hard binding through the grown store, and every rule that makes one invalid
/// (docs/c2pa.md, Update manifests). C2PAUpdateAgreementTests compares these files, and
/// c2pa-rs's own, with c2pa-rs.
@Suite struct C2PAUpdateManifestTests {
    let t = C2PAValidatorTests()
    static let updateLabel = "urn:c2pa:0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a"

    static func actions(_ names: String...) -> (label: String, content: CBOR) {
        ("c2pa.actions.v2", .textMap([("actions", .array(names.map { .textMap([("action", .text($0))]) }))]))
    }

    /// An update manifest's builder: our test signer, its own label, `assertions` (by default one
    /// allowed action).
    func updateBuilder(_ assertions: [(label: String, content: CBOR)] = [actions("c2pa.edited.metadata")],
                       label: String = updateLabel) throws -> ManifestBuilder {
        var b = try t.builder(timestamp: false)
        b.manifestLabel = label
        b.instanceID = "xmp:iid:update-\(label.suffix(4))"
        b.title = "update"
        b.assertions = assertions
        return b
    }

    func parentJPEG() throws -> [UInt8] { try t.builder(timestamp: false).signJPEG(try t.media("jpg")) }

    func store(_ file: [UInt8]) throws -> (ManifestStore, ManifestLocation) {
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(file)) else { throw ContainerError.noInsertionPoint }
        return (try ManifestStore(parsing: loc.storeBytes), loc)
    }

    var parentLabel: String { "urn:c2pa:6b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" } // C2PAValidatorTests.builder's
    var parentHashURL: String { JUMBFURI.absolute(manifest: parentLabel, path: "c2pa.assertions/c2pa.hash.data") }

    @Test func updateManifestIsBoundByItsParentsHardBinding() throws {
        let parent = try parentJPEG()
        let file = try updateBuilder().appendUpdateManifest(to: parent)
        let (s, loc) = try store(file)
        #expect(s.manifests.map(\.kind) == [.standard, .update])
        let active = try #require(s.activeManifest)
        #expect(active.label == Self.updateLabel && active.assertion(labelled: "c2pa.hash.data") == nil)

        let v = try t.validator()
        let r = v.validate(source: MemoryByteSource(file))
        #expect(r.integrity == .intact && r.trust == .trusted, "\(r.failure)")
        #expect(r.failure == [])
        #expect(r.activeManifest == Self.updateLabel)
        #expect(r.signer?.subject.contains("Device 7") == true)
        // The asset's bytes are bound by the parent's data hash, reported at its URL.
        #expect(r.success.contains { $0.code == "assertion.dataHash.match" && $0.url == parentHashURL })
        #expect(r.success.contains { $0.code == "ingredient.manifest.validated" && $0.url == Self.manifestURI(parentLabel) })
        #expect(r.success.contains { $0.code == "claimSignature.validated"
            && $0.url == JUMBFURI.absolute(manifest: Self.updateLabel, path: "c2pa.signature") })

        // The store grew past the parent's exclusion: only the widened exclusion matches.
        let hashBox = try #require(s.manifests.first?.assertion(labelled: "c2pa.hash.data"))
        let dataHash = try DataHashAssertion(cbor: try #require(try Manifest.cborContent(of: hashBox)))
        let span = try #require(loc.span)
        #expect(dataHash.exclusions.count == 1 && dataHash.exclusions[0].start == UInt64(span.lowerBound))
        #expect(dataHash.exclusions[0].length < UInt64(span.count))
        #expect(try dataHash.computeHash(over: MemoryByteSource(file), algorithm: .sha256) != dataHash.hash)
        var widened = dataHash
        widened.exclusions = C2PAValidator.exclusions(dataHash.exclusions, adjustedTo: span)
        #expect(try widened.computeHash(over: MemoryByteSource(file), algorithm: .sha256) == dataHash.hash)

        // The parent's binding still guards the media; the update's own signature guards its claim.
        let media = v.validate(source: MemoryByteSource(t.flip(file, at: file.count - 20)))
        #expect(media.integrity == .tampered && media.failureCodes == ["assertion.dataHash.mismatch"])
        #expect(media.failure.first?.url == parentHashURL)
        let title = try #require(t.index(of: Array("xmp:iid:update".utf8), in: file))
        let claim = v.validate(source: MemoryByteSource(t.flip(file, at: title + 3)))
        #expect(claim.integrity == .tampered && claim.failureCodes.contains("claimSignature.mismatch"))
        // Read as a standard manifest (its type 'c2um' → 'c2ma'), it has no hard binding.
        let um = try #require(t.index(of: Array("c2um".utf8), in: file))
        var standard = file
        standard.replaceSubrange(um..<(um + 4), with: Array("c2ma".utf8))
        let asStandard = v.validate(source: MemoryByteSource(standard))
        #expect(asStandard.integrity == .tampered && asStandard.failureCodes.contains("claim.hardBindings.missing"))
    }

    static func manifestURI(_ label: String) -> String { C2PAValidator.manifestURI(label) }

    @Test func updateOfAnUpdateReachesTheFirstHardBinding() throws {
        let first = try updateBuilder().appendUpdateManifest(to: try parentJPEG())
        let second = try updateBuilder(label: "urn:c2pa:5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d").appendUpdateManifest(to: first)
        let (s, _) = try store(second)
        #expect(s.manifests.map(\.kind) == [.standard, .update, .update])
        let r = try t.validator().validate(source: MemoryByteSource(second))
        #expect(r.integrity == .intact && r.failure == [], "\(r.failure)")
        #expect(r.success.contains { $0.code == "assertion.dataHash.match" && $0.url == parentHashURL })
        #expect(r.codes.filter { $0 == "ingredient.manifest.validated" }.count == 2)
    }

    /// Each invalid update manifest: its codes, and that it is never `intact`.
    @Test func invalidUpdateManifests() throws {
        let parent = try parentJPEG()
        let parentManifest = try #require(try store(parent).0.activeManifest)
        let v = try t.validator()
        let claimURL = Self.manifestURI(Self.updateLabel)
        func check(_ name: String, _ file: [UInt8], codes: Set<String>, bound: Bool = true) {
            let r = v.validate(source: MemoryByteSource(file))
            #expect(r.integrity == .tampered, "\(name): \(r.failure)")
            #expect(Set(r.failureCodes) == codes, "\(name): \(r.failure)")
            #expect(r.failure.allSatisfy { $0.code.hasPrefix("assertion.") || $0.code == "claim.hardBindings.missing"
                || $0.url == claimURL }, "\(name): \(r.failure)")
            // The parent's hard binding is still found and checked whenever a parentOf leads to it.
            #expect(r.codes.contains("assertion.dataHash.match") == bound, "\(name)")
            #expect(r.trust == .trusted, "\(name)")
        }
        check("no parentOf", try updateBuilder().appendUpdateManifest(to: parent, parentOf: false),
              codes: ["manifest.update.wrongParents", "claim.hardBindings.missing"], bound: false)
        let second = ("c2pa.ingredient.v3__1", ManifestBuilder.parentIngredient(to: parentManifest))
        check("two parentOf", try updateBuilder([Self.actions("c2pa.edited.metadata"), second]).appendUpdateManifest(to: parent),
              codes: ["manifest.update.invalid"])
        check("created action", try updateBuilder([Self.actions("c2pa.edited.metadata", "c2pa.created")]).appendUpdateManifest(to: parent),
              codes: ["manifest.update.invalid"])
        let ownHash = ("c2pa.hash.data", DataHashAssertion(exclusions: [], hash: [UInt8](repeating: 0, count: 32)).cbor)
        check("own hard binding", try updateBuilder([Self.actions("c2pa.edited.metadata"), ownHash]).appendUpdateManifest(to: parent),
              codes: ["manifest.update.invalid"])
        let thumbnail = ("c2pa.thumbnail.claim.jpeg", CBOR.bytes([0xFF, 0xD8, 0xFF, 0xD9]))
        check("claim thumbnail", try updateBuilder([thumbnail]).appendUpdateManifest(to: parent), codes: ["manifest.update.invalid"])
        let unreadable = ("c2pa.actions.v2", CBOR.textMap([("actions", .text("c2pa.opened"))]))
        check("unreadable actions", try updateBuilder([unreadable]).appendUpdateManifest(to: parent), codes: ["assertion.action.malformed"])

        // Its parentOf names itself: the search for a hard binding ends (visited), the walk
        // reports the cycle.
        let selfRef = ("c2pa.ingredient.v3", CBOR.textMap([
            ("relationship", .text("parentOf")),
            ("activeManifest", HashedURI(url: Self.manifestURI(Self.updateLabel), alg: "sha256", hash: [UInt8](repeating: 7, count: 32)).cbor),
            ("validationResults", .textMap([("activeManifest", .textMap([("success", .array([])), ("informational", .array([])),
                                                                         ("failure", .array([]))]))])),
        ]))
        let cyclic = v.validate(source: MemoryByteSource(try updateBuilder([selfRef]).appendUpdateManifest(to: parent, parentOf: false)))
        #expect(cyclic.integrity == .tampered)
        #expect(Set(cyclic.failureCodes) == ["claim.hardBindings.missing", "assertion.ingredient.malformed"], "\(cyclic.failure)")

        // A standard manifest (c2ma) with two parentOf ingredients and no hard binding of its own.
        let standard = try updateBuilder([Self.actions("c2pa.edited.metadata"), second])
            .appendUpdateManifest(to: parent, updateType: C2PABoxType.manifest)
        let r = v.validate(source: MemoryByteSource(standard))
        #expect(Set(r.failureCodes) == ["manifest.multipleParents", "claim.hardBindings.missing"], "\(r.failure)")
        #expect(r.failure.first { $0.code == "manifest.multipleParents" }?.url == claimURL)
    }

    @Test func exclusionAdjustment() {
        typealias E = DataHashAssertion.Exclusion
        let store: Range<Int64> = 100..<400
        // The store's exclusion widened; a later one moves by the growth (300 − 120); an
        // earlier one stays.
        #expect(C2PAValidator.exclusions([E(start: 20, length: 10), E(start: 100, length: 120), E(start: 500, length: 4)], adjustedTo: store)
            == [E(start: 20, length: 10), E(start: 100, length: 300), E(start: 680, length: 4)])
        // No exclusion starts where the store does: unchanged (the hash will not match).
        let other = [E(start: 99, length: 120)]
        #expect(C2PAValidator.exclusions(other, adjustedTo: store) == other)
        // An exclusion longer than the store shrinks to it and moves nothing.
        #expect(C2PAValidator.exclusions([E(start: 100, length: 500), E(start: 700, length: 1)], adjustedTo: store)
            == [E(start: 100, length: 300), E(start: 700, length: 1)])
        // Offsets never wrap.
        #expect(C2PAValidator.exclusions([E(start: 100, length: 1), E(start: UInt64.max - 5, length: 1)], adjustedTo: store)
            == [E(start: 100, length: 300), E(start: UInt64.max, length: 1)])
    }

    /// A file with no store whose XMP names a remote manifest: unsigned, the URL reported, never
    /// fetched; JPEG (APP1) and MP4 (top-level XMP uuid box).
    @Test func remoteManifestReferences() throws {
        let url = "https://manifests.example.invalid/c2pa/ours-1.c2pa"
        let v = try t.validator()
        let jpeg = try JPEGContainer.insertXMP(XMPProvenance.minimalPacket(provenance: url), into: try t.media("jpg"))
        let mp4 = try t.media("mp4")
        let packet = XMPProvenance.minimalPacket(provenance: url)
        let xmpBox = withUnsafeBytes(of: UInt32(8 + 16 + packet.count).bigEndian, Array.init) + Array("uuid".utf8) + XMPProvenance.bmffUserType + packet
        for (name, file) in [("jpeg", jpeg), ("mp4", mp4 + xmpBox)] {
            let r = v.validate(source: MemoryByteSource(file))
            #expect(r.integrity == .unsigned, "\(name)")
            #expect(r.reason == "remote manifest referenced, not fetched: \(url)", "\(name)")
            #expect(r.failure.isEmpty)
            #expect(r.informational == [.init(code: "manifest.inaccessible", url: url,
                                              explanation: "remote manifest not fetched (verification makes no network calls)")], "\(name)")
        }
        // No XMP, or a provenance that is no http(s) URL: plain unsigned.
        for file in [try t.media("jpg"),
                     try JPEGContainer.insertXMP(XMPProvenance.minimalPacket(provenance: "self#jumbf=c2pa"), into: try t.media("jpg"))] {
            let r = v.validate(source: MemoryByteSource(file))
            #expect(r.integrity == .unsigned && r.reason == "none" && r.informational.isEmpty)
        }
        // A file that has a store is judged by it, whatever its XMP says.
        let signed = try t.builder(timestamp: false).signJPEG(jpeg)
        let s = v.validate(source: MemoryByteSource(signed))
        #expect(s.integrity == .intact && s.informational.allSatisfy { $0.code != "manifest.inaccessible" })
    }
}
