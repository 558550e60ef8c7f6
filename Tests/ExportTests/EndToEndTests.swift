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

/// capture-synth dump → Ingestor → export of every record → bagit-python and verify-export;
/// the fresh verification over the bag's copies agrees with the one at ingest.
@Suite struct EndToEndTests {
    @Test func synthDumpIngestedAndExportedVerifiesTheSameFromTheBag() throws {
        let root = NSTemporaryDirectory() + "export-e2e-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let options = SynthOptions(stills: 2, videos: 1, seed: 5, videoSeconds: 1,
                                   faults: [.rewrapped, .sidecarChanged, .unsigned, .signatureFlip, .sinkDisabled],
                                   concurrency: 2, stillWidth: 320, stillHeight: 240)
        let dump = root + "/dump"
        _ = try DumpSynthesizer(options: options).write(to: dump)
        let store = try ContentStore.create(at: root + "/archive")
        let archive = try LMDBArchive(store: store)
        let key = try ArchiveKey.loadOrCreate(archive: store.directory).key
        let signer = try TrustAnchors(pemFile: dump + "/" + DumpSynthesizer.signerRootFile)
        let tsa = try TrustAnchors(pemFile: dump + "/" + DumpSynthesizer.tsaRootFile)
        let verifier = CaptureVerifier(signerAnchors: signer, tsaAnchors: tsa)
        var ingestOptions = Ingestor.Options()
        ingestOptions.jobs = 2
        let (captures, errors) = Ingestor.discover([dump])
        #expect(errors.isEmpty)
        _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: ingestOptions).run(captures) { _ in }

        let ids = try archive.index.query(RecordFilter()).matches
        let records = try archive.index.records(ids)
        #expect(records.count == captures.count - 1)  // the re-wrapped copy is a variant, not a record
        #expect(records.contains { $0.variants.count == 2 })

        let exporter = Exporter(store: LMDBBlobStore(store), key: key)
        exporter.reverifier = { folder, media in
            verifier.verify(CaptureLocation(deliveryFile: media, captureFolder: folder, dumpRoot: folder))
        }
        exporter.thumbnailer = Exporter.mediaThumbnailer
        exporter.custody = StoredCustodySource(archive.custody)
        let out = root + "/bag"
        let summary = try exporter.export(records, options: Exporter.Options(
            destination: out, caseName: "E2E", operatorName: "tester", toolVersion: CustodyAgent.toolVersion))
        #expect(summary.records == records.count)
        #expect(summary.changedRecords == [], "fresh verification from the bag differs for \(summary.changedRecords)")

        let python = try #require(bagitPython(), "no Python venv with bagit-python")
        let (code, text) = try ExportFixture.run(python, ["-m", "bagit", "--validate", out])
        #expect(code == 0, "bagit --validate: \(text)")
        let result = BagVerifier(bag: out).verify()
        #expect(result.findings == [])
        #expect(result.records == records.count)

        let doc = try CustodyDocument.decoder().decode(CustodyDocument.self,
                                                       from: Data(contentsOf: URL(fileURLWithPath: out + "/custody.json")))
        for r in doc.records {
            let ingest = try #require(r.verificationAtIngest, "report at ingest of \(r.recordId)")
            let fresh = try #require(r.verificationAtExport.report)
            #expect(fresh.integrity == ingest.integrity)
            #expect(fresh.sidecars.map(\.state) == ingest.sidecars.map(\.state))
            #expect(fresh.signer?.trust == ingest.signer?.trust)
            #expect(!r.custodyEvents.isEmpty)
            #expect(r.custodyEvents.last == summary.replicationEvent)
        }
        #expect(doc.records.contains { $0.sidecars.values.contains("mismatch") })
        #expect(doc.records.contains { $0.integrity == "unsigned" })
        #expect(try archive.custody.verify().isIntact)
        // Thumbnails for the stills and the video; pose plots where the record carries a trace.
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.components(separatedBy: "<img class=\"thumb\"").count - 1 >= 6)
    }
}
