import ArchiveLMDB
import CAS
import Crypto
import Custody
import Export
import Foundation
import Ground
import Ingest
import Query
import Synthesis
import TestLiterals
import Testing
import Verify

/// The thumbnail ingest stored (a derived blob) is what report.html shows, and it never enters
/// the bag: not in the payload, not in the manifests, not named by custody.json.
@Suite struct StoredThumbnailTests {
    @Test func reportUsesStoredThumbnailAndBagLeavesItOut() throws {
        let root = NSTemporaryDirectory() + "export-thumbs-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dump = root + "/dump"
        _ = try DumpSynthesizer(options: SynthOptions(stills: 2, videos: 0, seed: 9, concurrency: 2,
                                                      stillWidth: 480, stillHeight: 360)).write(to: dump)
        let store = try ContentStore.create(at: root + "/archive")
        let archive = try LMDBArchive(store: store)
        let key = try ArchiveKey.loadOrCreate(archive: store.directory).key
        let verifier = CaptureVerifier(signerAnchors: try TrustAnchors(pemFile: dump + "/" + DumpSynthesizer.signerRootFile),
                                       tsaAnchors: try TrustAnchors(pemFile: dump + "/" + DumpSynthesizer.tsaRootFile))
        var o = Ingestor.Options()
        o.jobs = 2
        _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: o).run(Ingestor.discover([dump]).captures) { _ in }
        let records = try archive.index.records(try archive.index.query(RecordFilter()).matches)
        #expect(records.count == 2)

        let exporter = Exporter(store: LMDBBlobStore(store), key: key)
        exporter.reverifier = { folder, media in
            verifier.verify(CaptureLocation(deliveryFile: media, captureFolder: folder, dumpRoot: folder))
        }
        exporter.thumbnailer = Exporter.mediaThumbnailer
        exporter.custody = StoredCustodySource(archive.custody)
        let bag = root + "/bag"
        _ = try exporter.export(records, options: Exporter.Options(destination: bag, caseName: nil, operatorName: "t",
                                                                   toolVersion: CustodyAgent.toolVersion))
        #expect(BagVerifier(bag: bag).verify().findings == [])
        let html = try String(contentsOfFile: bag + "/report.html", encoding: .utf8)
        let manifest = try String(contentsOfFile: bag + "/manifest-sha256.txt", encoding: .utf8)
        let custody = try String(contentsOfFile: bag + "/custody.json", encoding: .utf8)
        let payloadHashes = Set(manifest.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        for r in records {
            let d = try #require(r.derived?.first)
            let blob = try #require(d.blobId)
            let blobId = blob.hex
            let bytes = try store.bytes(of: blob)
            // The stored bytes, as they are, in the page, said to be a derived preview.
            #expect(html.contains("src=\"data:image/jpeg;base64,\(Data(bytes).base64EncodedString())\""))
            #expect(html.contains("derived preview, not evidence: thumbnail \(blobId)"))
            // Not evidence: not a payload file, not in custody.json; every evidence blob is.
            #expect(!payloadHashes.contains(blobId))
            #expect(!custody.contains(blobId))
            for v in r.variants { #expect(payloadHashes.contains(v.blobId.hex)) }
            for f in r.files { #expect(payloadHashes.contains(f.blobId.hex)) }
        }
        #expect(!html.contains("decoded at export"))

        // Records without a stored thumbnail (ingested before derived blobs): decoded at export.
        var old = records
        for i in old.indices { old[i].derived = nil }
        let bag2 = root + "/bag2"
        _ = try exporter.export(old, options: Exporter.Options(destination: bag2, caseName: nil, operatorName: "t",
                                                               toolVersion: CustodyAgent.toolVersion))
        let html2 = try String(contentsOfFile: bag2 + "/report.html", encoding: .utf8)
        #expect(html2.components(separatedBy: "decoded at export from the delivery file in the bag").count - 1 == records.count)
        #expect(html2.components(separatedBy: "<img class=\"thumb\"").count - 1 == records.count)
        for r in records {
            let bytes = try store.bytes(of: try #require(r.derived?.first?.blobId))
            #expect(!html2.contains(Data(bytes).base64EncodedString()))  // 240 px wide at export, 320 stored
        }
    }
}
