import Analysis
import ArchiveLMDB
import CAS
import Crypto
import Custody
import Foundation
import Ground
import Ingest
import Query
import Synthesis
import Testing
import Verify

/// Issue 13 item 1 proof: every record made by `ingest --defer-media` + `analyze` equals the one
/// a default ingest makes of the same faulted capture-synth dump — report JSON byte for byte,
/// the record (thumbnail, analyses, files, variants), index entries and query answers — except
/// the ingest times and the `metadata extraction` events.
@Suite struct DeferredAnalysisTests {
    static let agent = CustodyAgent(operator: "test", tool: .init(name: "exhibit-archive", version: "test"), host: "test")

    /// Every fault capture-synth has, stills and videos (one 2 s video, seed 7, 320×240 stills).
    static let dump: Result<(root: String, expected: ExpectedDump), any Error> = Result {
        let root = AnalysisFixture.scratch("dump") + "/dump"
        let options = SynthOptions(stills: 2, videos: 1, seed: 7, videoSeconds: 2, faults: SynthFault.allCases, concurrency: 2,
                                   stillWidth: 320, stillHeight: 240)
        return (root, try DumpSynthesizer(options: options).write(to: root))
    }

    /// A fresh archive holding the dump, ingested by default or with the analyses deferred.
    static func ingest(_ root: String, expected: ExpectedDump, deferred: Bool) throws -> LMDBArchive {
        let archive = try AnalysisFixture.archive()
        var verifier = CaptureVerifier(signerAnchors: try TrustAnchors(pemFile: root + "/" + expected.signerRoot),
                                       tsaAnchors: try TrustAnchors(pemFile: root + "/" + expected.tsaRoot))
        verifier.measuresMedia = !deferred
        var o = Ingestor.Options()
        o.jobs = 2
        o.agent = agent
        o.deferAnalyses = deferred
        let (captures, errors) = Ingestor.discover([root])
        #expect(errors.isEmpty)
        let summary = try Ingestor(archive: try archive.archive(), verifier: verifier, options: o).run(captures) { _ in }
        #expect(summary.outcomes["failed", default: 0] == 0)
        return archive
    }

    static func analyzer(_ archive: LMDBArchive, jobs: Int = 2) -> Analyzer {
        var o = Analyzer.Options()
        o.jobs = jobs
        o.agent = agent
        return Analyzer(records: archive.records, blobs: LMDBBlobStore(archive.store), custody: archive.custodyStore,
                        verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none), options: o)
    }

    /// The record without its ingest times (record and variants, sidecar variants).
    static func timeless(_ r: IndexedRecord) -> IndexedRecord {
        var r = r
        r.ingestTime = "-"
        for i in r.variants.indices { r.variants[i].firstIngested = "-" }
        if var s = r.sidecarVariants {
            for i in s.indices { s[i].firstIngested = "-" }
            r.sidecarVariants = s
        }
        return r
    }

    /// Filters whose answers must agree (every vocabulary value; not the ingest-time prefix).
    static var filters: [RecordFilter] {
        var out = [RecordFilter()]
        out += Integrity.allCases.map { RecordFilter(integrity: $0) }
        out += Trust.allCases.map { RecordFilter(trust: $0) }
        out += MediaKind.allCases.map { RecordFilter(kind: $0) }
        out += SidecarState.allCases.map { RecordFilter(sidecarState: $0) }
        out += SidecarSink.allCases.map { RecordFilter(sink: $0) }
        out += AnalysisState.allCases.map { RecordFilter(analyses: $0) }
        out += AnalysisState.allCases.map { RecordFilter(kind: .still, analyses: $0) }
        return out
    }

    @Test func deferredThenAnalysedEqualsDefaultIngest() throws {
        let (root, expected) = try Self.dump.get()
        let full = try Self.ingest(root, expected: expected, deferred: false)
        let deferred = try Self.ingest(root, expected: expected, deferred: true)
        let ids = try full.index.query(RecordFilter()).matches
        #expect(ids.count >= expected.captures.count - 1, "one record per capture but the re-wrapped twin")
        #expect(try deferred.index.query(RecordFilter()).matches == ids)

        // Before: every deferred record pending, without media or thumbnail; every default one done.
        #expect(try full.index.query(RecordFilter(analyses: .done)).matches == ids)
        #expect(try deferred.index.query(RecordFilter(analyses: .pending)).matches == ids)
        #expect(try deferred.index.count(RecordFilter(analyses: .done)).matches == 0)
        var mediaBefore = 0
        for id in ids {
            let r = try #require(try deferred.index.get(recordId: id))
            #expect(r.analyses?.state == .pending && r.analyses?.deliveryPath != nil && r.derived == nil, "\(id)")
            let report = try JSONSerialization.jsonObject(with: r.reportJSON) as? [String: Any] ?? [:]
            if report["media"] != nil || report["parallax"] != nil { mediaBefore += 1 }
        }
        #expect(mediaBefore == 0, "a deferred report carries media")

        // Analyse: everything selected once, then nothing.
        let analyzer = Self.analyzer(deferred)
        let selected = try analyzer.select()
        #expect(selected == ids)
        var results: [AnalysisResult] = []
        let summary = try analyzer.run(selected) { results.append($0) }
        #expect(summary.outcomes[.analysed] == ids.count, "\(results.filter { $0.outcome != .analysed })")
        #expect(try analyzer.select().isEmpty)
        let again = try analyzer.run(ids) { _ in }
        #expect(again.outcomes[.skipped] == ids.count)

        // Equal records, reports byte for byte, thumbnails stored.
        var thumbnails = 0, parallax = 0, recomputed = 0
        for id in ids {
            let a = try #require(try full.index.get(recordId: id))
            let b = try #require(try deferred.index.get(recordId: id))
            #expect(String(decoding: b.reportJSON, as: UTF8.self) == String(decoding: a.reportJSON, as: UTF8.self), "report of \(id)")
            #expect(Self.timeless(b) == Self.timeless(a), "record \(id)")
            for d in b.derived ?? [] {
                if let blob = d.blobId {
                    #expect(try deferred.store.bytes(of: blob) == full.store.bytes(of: blob))
                    thumbnails += 1
                }
            }
            let report = try JSONSerialization.jsonObject(with: b.reportJSON) as? [String: Any] ?? [:]
            if report["parallax"] != nil { parallax += 1 }
            if ((report["streamedChunks"] as? [String: Any])?["recomputation"]) != nil { recomputed += 1 }
        }
        #expect(thumbnails > 0 && parallax > 0 && recomputed > 0, "thumbnails \(thumbnails), parallax \(parallax), recomputed \(recomputed)")

        // The same query answers and counts; index counters consistent.
        for f in Self.filters {
            #expect(try deferred.index.query(f) == full.index.query(f), "\(f)")
            #expect(try deferred.index.count(f) == full.index.count(f), "\(f)")
        }
        #expect(try deferred.index.checkCounters().isEmpty)

        // One metadata extraction event per record, naming it and its new report; the chain verifies.
        let events = try deferred.custody.allEvents()
        let extraction = events.filter { $0.eventType == .metadataExtraction }
        #expect(extraction.count == ids.count)
        for id in ids {
            let mine = extraction.filter { $0.objects.contains(.record(id)) }
            let record = try #require(try deferred.index.get(recordId: id))
            #expect(mine.count == 1 && mine.first?.objects.contains(.report(record.reportId)) == true, "\(id)")
        }
        #expect(try full.custody.allEvents().filter { $0.eventType == .metadataExtraction }.isEmpty)
        #expect(try deferred.custody.verify().isIntact)

        // Another tool version sees every record as done by someone else: selected again,
        // unless the filter asks for pending records only.
        var other = Analyzer.Options()
        other.agent = CustodyAgent(operator: "test", tool: .init(name: "exhibit-archive", version: "other"), host: "test")
        let newer = Analyzer(records: deferred.records, blobs: LMDBBlobStore(deferred.store), custody: deferred.custodyStore,
                             verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none), options: other)
        #expect(try newer.select() == ids)
        #expect(try newer.select([RecordFilter(analyses: .done)]) == ids)
        #expect(try newer.select([RecordFilter(analyses: .pending)]).isEmpty)
        #expect(try newer.select([RecordFilter(kind: .video)]) == full.index.query(RecordFilter(kind: .video)).matches)
    }

    /// `analyze` reads the store only: with the dump moved away, a deferred archive — some of
    /// whose records `reverify` rewrote meanwhile (their reports then name files under the
    /// snapshot root, the delivery file under its ingest path) — is analysed whole, every media
    /// file with facts, every still with parallax, and the reports equal those of the records
    /// analysed without the reverify.
    @Test func analyzeNeverReadsTheDump() throws {
        let root = AnalysisFixture.scratch("moved") + "/dump"
        let options = SynthOptions(stills: 3, videos: 1, seed: 21, videoSeconds: 1, concurrency: 2, stillWidth: 320, stillHeight: 240)
        let expected = try DumpSynthesizer(options: options).write(to: root)
        let plain = try Self.ingest(root, expected: expected, deferred: true)
        let reverified = try Self.ingest(root, expected: expected, deferred: true)
        let verifier = CaptureVerifier(signerAnchors: try TrustAnchors(pemFile: root + "/" + expected.signerRoot),
                                       tsaAnchors: try TrustAnchors(pemFile: root + "/" + expected.tsaRoot))
        try Reverifier(archive: try reverified.archive(), verifier: verifier, agent: Self.agent).run(nil) { #expect($0.error == nil) }
        #expect(rename(root, root + "-moved") == 0)
        for archive in [plain, reverified] {
            let a = Self.analyzer(archive)
            let s = try a.run(try a.select()) { #expect($0.error == nil, "\($0.error ?? "")") }
            #expect(s.outcomes[.analysed] == expected.captures.count)
        }
        for id in try plain.index.query(RecordFilter()).matches {
            let p = try #require(try plain.index.get(recordId: id)), r = try #require(try reverified.index.get(recordId: id))
            let pr = try JSONSerialization.jsonObject(with: p.reportJSON) as? [String: Any] ?? [:]
            let rr = try JSONSerialization.jsonObject(with: r.reportJSON) as? [String: Any] ?? [:]
            let media = (pr["media"] as? [[String: Any]]) ?? []
            #expect(!media.isEmpty && media.allSatisfy { $0["facts"] != nil && $0["error"] == nil }, "\(id): \(media)")
            #expect(NSDictionary(dictionary: ["m": rr["media"] ?? NSNull(), "p": rr["parallax"] ?? NSNull()])
                    == NSDictionary(dictionary: ["m": pr["media"] ?? NSNull(), "p": pr["parallax"] ?? NSNull()]), "\(id)")
            if p.kind == .still { #expect(pr["parallax"] != nil, "\(id)") }
            #expect(p.derived == r.derived && p.derived?.first?.blobId != nil)
        }
    }
}
