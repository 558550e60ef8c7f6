import ArchiveLMDB
import C2PA
import CAS
import Crypto
import Custody
import Export
import Foundation
import Ingest
import Query
import Synthesis
import Testing
import Verify

/// Records of the formats of issue 16 in a bag: a sound and a document have no picture, so
/// report.html shows no preview and the finding that says why — never a made-up thumbnail — a
/// PNG shows its stored thumbnail, and the bag verifies.
@Suite struct FormatExportTests {
    @Test func soundsAndDocumentsExportWithoutAPreview() throws {
        let root = NSTemporaryDirectory() + "export-formats-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dump = root + "/dump"
        try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
        let pki = try SynthPKI(seed: 6, deviceCount: 1)
        let device = try #require(pki.devices.first)
        let builder = ManifestBuilder(manifestLabel: "urn:c2pa:7d2f1e0c-9b8a-4c6d-8e5f-1a2b3c4d5e6f", instanceID: "xmp:iid:export",
                                      generatorName: "exhibit-tests", assertions: [],
                                      signer: .init(algorithm: .es256, certificateChain: device.chain.map(\.der),
                                                    sign: { try device.key.sign($0, algorithm: .es256) }))
        for f: ContainerFormat in [.wav, .pdf, .png] {
            let bytes = try builder.sign(try FormatSamples.unsigned(f, work: root), format: f)
            try Data(bytes).write(to: URL(fileURLWithPath: "\(dump)/signed.\(FormatSamples.fileExtension(f))"))
        }
        let store = try ContentStore.create(at: root + "/archive")
        let archive = try LMDBArchive(store: store)
        let key = try ArchiveKey.loadOrCreate(archive: store.directory).key
        let verifier = CaptureVerifier(signerAnchors: try TrustAnchors([pki.root]), tsaAnchors: .none)
        _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: Ingestor.Options()).run(Ingestor.discover([dump]).captures) { _ in }
        let records = try archive.index.records(try archive.index.query(RecordFilter()).matches)
        #expect(Set(records.map(\.kind)) == ["audio", "document", "still"])

        let exporter = Exporter(store: LMDBBlobStore(store), key: key)
        exporter.reverifier = { folder, media in verifier.verify(CaptureLocation(deliveryFile: media, captureFolder: folder, dumpRoot: folder)) }
        exporter.thumbnailer = Exporter.mediaThumbnailer
        exporter.custody = StoredCustodySource(archive.custody)
        let bag = root + "/bag"
        _ = try exporter.export(records, options: Exporter.Options(destination: bag, caseName: nil, operatorName: "t",
                                                                   toolVersion: CustodyAgent.toolVersion))
        #expect(BagVerifier(bag: bag).verify().findings == [])
        let html = try String(contentsOfFile: bag + "/report.html", encoding: .utf8)
        #expect(html.components(separatedBy: "<img class=\"thumb\"").count - 1 == 1, "only the PNG has a picture")
        #expect(html.components(separatedBy: "no preview").count - 1 == 2)
        for r in records where r.kind != "still" {
            let finding = try #require(r.derived?.first?.finding, "\(r.kind)")
            #expect(finding.hasPrefix("media."), "\(r.kind): \(finding)")
            #expect(html.contains("none: " + finding), "\(r.kind): the report says why")
        }
    }
}
