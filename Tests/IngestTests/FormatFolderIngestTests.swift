import C2PA
import CAS
import Crypto
import Foundation
import Ingest
import Query
import Synthesis
import Testing
import Verify

/// A dump that is a plain folder of signed files from anywhere, one of every format (issue 16):
/// each file is one record with the kind its container says, the index answers `--kind audio`
/// and `document`, and files with no picture get a thumbnail finding, never a blob.
@Suite struct FormatFolderIngestTests {
    @Test func plainFolderOfEveryFormat() throws {
        let folder = DumpFixture.scratch("formats") + "/from-anywhere"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let pki = try SynthPKI(seed: 5, deviceCount: 1)
        let device = try #require(pki.devices.first)
        let signer = ManifestBuilder.Signer(algorithm: .es256, certificateChain: device.chain.map(\.der),
                                            sign: { try device.key.sign($0, algorithm: .es256) })
        let actions = CBOR.textMap([("actions", .array([.textMap([("action", .text("c2pa.created")),
            ("digitalSourceType", .text("http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"))])]))])
        let builder = ManifestBuilder(manifestLabel: "urn:c2pa:0e5b7c2a-4d1f-4e8b-9a6c-3f2d1e0c9b8a", instanceID: "xmp:iid:formats",
                                      generatorName: "exhibit-tests", assertions: [("c2pa.actions.v2", actions)], signer: signer)
        for f in FormatSamples.formats {
            let plain = try FormatSamples.unsigned(f, work: DumpFixture.root)
            try Data(try builder.sign(plain, format: f)).write(to: URL(fileURLWithPath: "\(folder)/signed.\(FormatSamples.fileExtension(f))"))
        }
        try Data(try FormatSamples.unsigned(.png, work: DumpFixture.root)).write(to: URL(fileURLWithPath: folder + "/plain.png"))
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder + "/junk.png"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))

        let archive = try DumpFixture.archive()
        var o = Ingestor.Options()
        o.jobs = 2
        o.agent = DumpFixture.agent
        let verifier = CaptureVerifier(signerAnchors: try TrustAnchors([pki.root]), tsaAnchors: .none)
        let (captures, errors) = Ingestor.discover([folder])
        #expect(errors.isEmpty)
        #expect(captures.count == FormatSamples.formats.count + 2, "\(captures.map(\.deliveryFile))") // notes.txt is no delivery file
        var items: [IngestItem] = []
        _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: o).run(captures) { items.append($0) }

        func record(_ name: String) throws -> (IngestItem, IndexedRecord) {
            let item = try #require(items.first { $0.path.hasSuffix("/" + name) }, "\(name)")
            let id = try #require(item.recordId)
            return (item, try #require(try archive.index.get(recordId: id)))
        }
        for f in FormatSamples.formats {
            let (item, rec) = try record("signed.\(FormatSamples.fileExtension(f))")
            #expect(item.outcome == .new, "\(f)")
            #expect(item.report.integrity == .intact && item.report.signer?.trust == .trusted, "\(f): \(item.report.statusCodes.failure)")
            #expect(item.report.container == f.rawValue && item.report.kind == f.kind && rec.kind == f.kind, "\(f): \(item.report.kind)")
            // Each a record of its own: no sidecars, no capture folder.
            #expect(item.report.sidecars.isEmpty && rec.variants.count == 1 && rec.files.isEmpty, "\(f): \(rec.files.map(\.role))")
            let thumb = try #require(rec.derived?.first, "\(f)")
            if f.kind == .audio || f == .pdf {
                #expect(thumb.blobId == nil && thumb.finding?.hasPrefix("media.") == true, "\(f): \(thumb)")
            } else if [.png, .webp, .tiff, .gif, .avi].contains(f) {
                #expect(thumb.blobId != nil && thumb.finding == nil, "\(f): \(thumb)")
            }
            // Media facts degrade to a named finding where libav knows no container.
            let media = try #require(item.report.media?.first, "\(f)")
            #expect(media.facts != nil || media.error?.code.hasPrefix("media.") == true, "\(f): \(media)")
        }
        #expect(try record("plain.png").0.report.integrity == .unsigned)
        let junk = try record("junk.png").0.report
        #expect(junk.integrity == .malformed && junk.statusCodes.failure.map(\.code) == ["general.error"] && junk.container == nil)

        // The index answers by kind.
        func count(_ kind: MediaKind) throws -> Int { try archive.index.query(RecordFilter(kind: kind)).matches.count }
        #expect(try count(.audio) == 3)
        #expect(try count(.document) == 1)
        #expect(try count(.video) == 1)
        #expect(try count(.still) == 7) // png, webp, tiff, gif, svg, jxl signed + plain.png
        #expect(try count(.unknown) == 1) // junk.png
    }
}
