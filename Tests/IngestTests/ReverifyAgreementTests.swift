import Crypto
import Foundation
import Ground
import Ingest
import Query
import Synthesis
import Testing
import Verify

/// Issue 12: a faulted dump's findings at ingest are what `reverify` finds again from the
/// archive's stored blobs alone (integrity, digest, every sidecar state, bundles, unreferenced
/// files, ring rejects): nothing at ingest was judged from bytes the archive does not hold.
@Suite struct ReverifyAgreementTests {
    @Test func reverifyFromTheStoreRepeatsTheIngestFindings() throws {
        let faults = DumpFixture.stillFaults
        let (root, _, verifier) = try DumpFixture.synthesized("reverify-agreement", stills: 2, seed: 31, faults: faults)
        let archive = try DumpFixture.archive()
        var options = Ingestor.Options()
        options.jobs = 2
        options.agent = DumpFixture.agent
        options.thumbnails = false
        let (captures, errors) = Ingestor.discover([root])
        #expect(errors.isEmpty)
        var items: [IngestItem] = []
        _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: options).run(captures) { items.append($0) }
        let stored = items.filter { $0.outcome == .new || $0.outcome == .variant }
        #expect(stored.count >= faults.count, "\(items.map { "\($0.outcome) \($0.sourcePath) \($0.error ?? "")" })")
        // The faults are there to be found again: tampered manifests, mismatched and missing sidecars, failed bundles.
        #expect(stored.contains { $0.report.integrity == .tampered })
        #expect(stored.contains { $0.report.sidecars.contains { $0.state == .mismatch } })
        #expect(stored.contains { $0.report.sidecars.contains { $0.state == .missing } })
        #expect(stored.contains { $0.report.disclosure.contains { $0.result == "failed" } })
        var atIngest: [ContentID: [CaptureReport]] = [:]
        for item in stored { if let id = item.recordId { atIngest[id, default: []].append(item.report) } }
        let (pairs, seen) = try DumpFixture.reverifyPairs(archive, verifier, atIngest: atIngest)
        for (first, again) in pairs {
            let name = first.path.split(separator: "/").suffix(2).joined(separator: "/")
            #expect(again.integrity == first.integrity, "\(name): integrity")
            #expect(again.sidecars.map { "\($0.sink)=\($0.state)" } == first.sidecars.map { "\($0.sink)=\($0.state)" }, "\(name): sidecars")
            #expect(again.disclosure.map { "\($0.profile):\($0.result)" } == first.disclosure.map { "\($0.profile):\($0.result)" },
                    "\(name): bundles")
            #expect(again.statusCodes == first.statusCodes, "\(name): status codes")
        }
        #expect(seen == atIngest.count)
    }
}
