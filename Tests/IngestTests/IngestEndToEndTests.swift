import ArchiveLMDB
import CAS
import Crypto
import Foundation
import Ground
import Ingest
import Query
import Synthesis
import TestLiterals
import Testing
import Verify

/// Ingest of a capture-synth dump with every still fault: records and states equal
/// expected.json, re-ingest is a no-op, re-wrapped copies add variants and no records.
@Suite struct IngestEndToEndTests {
    func ingest(_ archive: LMDBArchive, _ roots: [String], jobs: Int = 2) throws -> ([IngestItem], IngestSummary) {
        let verifier = CaptureVerifier(signerAnchors: try archive.trust.trustAnchors(.signer),
                                       tsaAnchors: try archive.trust.trustAnchors(.tsa))
        var options = Ingestor.Options()
        options.jobs = jobs
        options.agent = DumpFixture.agent
        let (captures, errors) = Ingestor.discover(roots)
        #expect(errors.isEmpty)
        var items: [IngestItem] = []
        let summary = try Ingestor(archive: try archive.archive(), verifier: verifier, options: options).run(captures) { items.append($0) }
        return (items, summary)
    }

    @Test func dumpWithEveryFault() throws {
        let (first, second) = try DumpFixture.allFaults.get()
        let expected = first.expected
        let archive = try DumpFixture.archive()
        let signer = try Certificate.parsePEM(String(contentsOfFile: first.root + "/" + expected.signerRoot, encoding: .utf8))
        let tsa = try Certificate.parsePEM(String(contentsOfFile: first.root + "/" + expected.tsaRoot, encoding: .utf8))
        #expect(try archive.trust.add(signer, role: .signer, agent: DumpFixture.agent, custody: archive.custody).count == 1)
        #expect(try archive.trust.add(tsa, role: .tsa, agent: DumpFixture.agent, custody: archive.custody).count == 1)

        let (items, summary) = try ingest(archive, [first.root])
        #expect(items.count == expected.captures.count)
        #expect(summary.captures == expected.captures.count)
        #expect(summary.outcomes["failed", default: 0] == 0)
        let byPath = Dictionary(uniqueKeysWithValues: items.map { ($0.sourcePath, $0) })
        let rootName = URL(fileURLWithPath: first.root).lastPathComponent
        var recordIds = Set<ContentID>()
        for c in expected.captures {
            let item = try #require(byPath[rootName + "/" + c.deliveryFile], "\(c.id) was not ingested")
            let id = try #require(item.recordId)
            recordIds.insert(id)
            if let claim = c.claimSHA256 { #expect(id.hex == claim, "\(c.id)") }
            let record = try #require(try archive.index.get(recordId: id))
            #expect(record.variants.contains { $0.blobId == item.report.sha256 && $0.sourcePaths.contains(item.sourcePath) })
            // Every file the verifier read is stored under its digest.
            for f in item.report.files {
                #expect(try archive.store.contains(f.sha256))
            }
            #expect(item.report.integrity.rawValue == c.integrity, "\(c.id) \(c.faults)")
            #expect(item.report.signer?.trust.rawValue == c.trust, "\(c.id) \(c.faults)")
            #expect(item.report.statusCodes.failure.map(\.code).sorted() == c.failureCodes, "\(c.id) \(c.faults)")
            // The record carries the verdict (a record follows its intact variant, if any).
            #expect(record.integrity.rawValue == c.integrity, "\(c.id) \(c.faults)")
            #expect(record.kind.rawValue == c.kind)
            #expect(record.keyFingerprint?.hex == c.keyFingerprint, "\(c.id)")
            #expect(record.captureTime == c.captureTime, "\(c.id)")
            #expect(Dictionary(uniqueKeysWithValues: record.sidecars.map { ($0.key.rawValue, $0.value.rawValue) })
                    == Dictionary(uniqueKeysWithValues: c.sidecars.map { ($0.sink, $0.state) }), "\(c.id) \(c.faults)")
        }
        // The rewrapped twin is the same record: one record, two variants.
        let twins = expected.captures.filter { $0.sameClaimAs != nil }
        #expect(!twins.isEmpty)
        for t in twins {
            let id = try #require(byPath[rootName + "/" + t.deliveryFile]?.recordId)
            let record = try #require(try archive.index.get(recordId: id))
            #expect(record.variants.count == 2)
        }
        let recordCount = try archive.environment.read { try archive.index.count(in: $0) }
        #expect(recordCount == recordIds.count)
        #expect(summary.outcomes["new"] == recordIds.count)
        #expect(summary.outcomes["variant"] == twins.count)
        // Index answers equal the expected states (over distinct records).
        for state in Integrity.allCases {
            let want = Set(expected.captures.filter { $0.integrity == state.rawValue }
                .compactMap { c in byPath[rootName + "/" + c.deliveryFile]?.recordId })
            let got = Set(try archive.index.query(RecordFilter(integrity: state)).matches)
            #expect(want == got, "\(state)")
        }
        // Custody: 2 trust events, then per new record digest+validation+ingestion (+signature when signed).
        let log = try archive.custody.verify()
        #expect(log.isIntact)
        let events = try archive.custody.allEvents()
        #expect(events.filter { $0.eventType == .ingestion }.count == items.filter { $0.outcome != .present }.count)
        #expect(events.filter { $0.eventType == .metadataModification }.count == 2)
        let blobs = try archive.store.stats().blobs
        #expect(try archive.store.stats().pendingPuts == 0)

        // Re-ingest: nothing added, every capture present.
        let (again, againSummary) = try ingest(archive, [first.root], jobs: 3)
        #expect(again.allSatisfy { $0.outcome == .present })
        #expect(againSummary.outcomes["present"] == expected.captures.count)
        #expect(againSummary.newBlobs == 0)
        #expect(try archive.custody.allEvents().count == events.count)
        #expect(try archive.store.stats().blobs == blobs)
        #expect(try archive.environment.read { try archive.index.count(in: $0) } == recordCount)

        // Re-wrapped copies (same claims, other bytes): variants of the known records, never a
        // new record for a capture with a readable claim.
        let (rewrapped, _) = try ingest(archive, [second.root])
        let secondName = URL(fileURLWithPath: second.root).lastPathComponent
        var added = 0, variants = 0
        for c in second.expected.captures {
            let item = try #require(rewrapped.first { $0.sourcePath == secondName + "/" + c.deliveryFile })
            if c.claimSHA256 != nil {
                #expect(item.outcome == .variant, "\(c.id) \(c.faults): \(item.outcome)")
                #expect(item.recordId == byPath[rootName + "/" + c.deliveryFile]?.recordId, "\(c.id)")
                variants += 1
            } else if item.outcome == .new {
                added += 1
            }
        }
        #expect(variants > 30)
        #expect(try archive.environment.read { try archive.index.count(in: $0) } == recordCount + added)
        // A record keeps the verdict of its intact variant.
        for c in expected.captures where c.integrity == "intact" && c.claimSHA256 != nil {
            let record = try #require(try archive.index.get(recordId: id(c.claimSHA256 ?? "")))
            #expect(record.integrity == "intact", "\(c.id)")
            #expect(record.variants.count >= 2)
        }
        #expect(try archive.custody.verify().isIntact)
        #expect(try archive.store.stats().pendingPuts == 0)
    }
}
