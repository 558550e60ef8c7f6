@testable import C2PA
import Crypto
import Ground
import TestLiterals
import Testing

/// The builder's layout: the signature reserve, the exclusion equal to the segments, the store
/// re-read by our parser with every hashed URI matching.
@Suite struct ManifestBuilderTests {
    func builder(reserve: Int?) -> ManifestBuilder {
        var signer = ManifestBuilder.Signer(algorithm: .es256, certificateChain: [[0x30, 0x03, 0x02, 0x01, 0x01]],
                                            sign: { MessageDigest.sha256($0) + MessageDigest.sha256($0) })
        signer.fixedReserve = reserve
        return ManifestBuilder(manifestLabel: "urn:c2pa:00000000-0000-4000-8000-000000000001", instanceID: "xmp:iid:2",
                               generatorName: "t", assertions: [("org.example.note", .textMap([("n", .int(1))]))], signer: signer)
    }

    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9]

    @Test func fixedReserveSizesTheSignatureBox() throws {
        let out = try builder(reserve: 1000).signJPEG(jpeg)
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(out)) else { Issue.record(); return }
        let store = try ManifestStore(parsing: loc.storeBytes)
        let m = try #require(store.activeManifest)
        let sig = try #require(m.signatureBytes)
        #expect(sig.count == 1000)
        let cose = try COSESign1(parsing: sig)
        let claimBytes = try #require(m.claimBytes)
        // The fake signer's output over the real Sig_structure is what got stored.
        let tbs = cose.toBeSigned(payload: claimBytes)
        #expect(cose.signature == MessageDigest.sha256(tbs) + MessageDigest.sha256(tbs))
        let claim = try Claim(label: "c2pa.claim.v2", bytes: claimBytes)
        #expect(claim.createdAssertions.map(\.url) == ["self#jumbf=c2pa.assertions/c2pa.hash.data",
                                                       "self#jumbf=c2pa.assertions/org.example.note"])
        for ref in claim.createdAssertions {
            let box = try #require(JUMBFURI.resolve(ref.url, in: store, relativeTo: m))
            #expect(MessageDigest.sha256(Array(box.hashedBytes)) == ref.hash)
        }
        let dhBox = try #require(m.assertion(labelled: "c2pa.hash.data"))
        let dh = try DataHashAssertion(cbor: try #require(try Manifest.cborContent(of: dhBox)))
        let span = try #require(loc.span)
        #expect(dh.exclusions == [.init(start: UInt64(span.lowerBound), length: UInt64(span.count))])
        #expect(span.lowerBound == 8) // after SOI and APP0
        #expect(try dh.computeHash(over: MemoryByteSource(out), algorithm: .sha256) == dh.hash)
        #expect(dh.hash == MessageDigest.sha256(jpeg))
    }

    @Test func tooSmallReserveIsNamed() throws {
        #expect(throws: ManifestBuilder.BuildError.self) { try builder(reserve: 20).signJPEG(jpeg) }
        do { _ = try builder(reserve: 20).signJPEG(jpeg) } catch { #expect(error.code == "cose.padTooSmall") }
    }
}
