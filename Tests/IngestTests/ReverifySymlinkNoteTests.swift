import Foundation
import Ground
import Ingest
import Synthesis
import Testing
import Verify

/// Issue 12 (g): a symlink in `evidence/` is reported at ingest (`symlink-escapes-dump`) and never
/// stored, so the store cannot show it again. `reverify` keeps that finding from the record's
/// stored report when it finds the sink in the same state with nothing there: the re-verified
/// sidecar carries the same notes as at ingest.
@Suite struct ReverifySymlinkNoteTests {
    @Test func reverifyKeepsTheSymlinkNoteOfIngest() throws {
        let (root, _, verifier) = try DumpFixture.synthesized("reverify-symlink", stills: 1, seed: 59, faults: [.symlinkEscape])
        let archive = try DumpFixture.archive()
        var options = Ingestor.Options()
        options.jobs = 1
        options.agent = DumpFixture.agent
        options.thumbnails = false
        var atIngest: [ContentID: [CaptureReport]] = [:]
        _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: options).run(Ingestor.discover([root]).captures) { item in
            if item.outcome == .new, let id = item.recordId { atIngest[id, default: []].append(item.report) }
        }
        let linked = atIngest.values.flatMap { $0 }.flatMap(\.sidecars).filter { $0.notes.contains("symlink-escapes-dump") }
        #expect(linked.count == 1, "the fault's sensors.jsonl → /etc/hostname")
        let (pairs, _) = try DumpFixture.reverifyPairs(archive, verifier, atIngest: atIngest)
        #expect(pairs.count == atIngest.count)
        for (first, again) in pairs {
            #expect(again.sidecars.map { "\($0.sink) \($0.state) \($0.notes)" } == first.sidecars.map { "\($0.sink) \($0.state) \($0.notes)" },
                    "\(first.path)")
        }
    }
}
