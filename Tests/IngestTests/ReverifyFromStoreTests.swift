import Archive
import Foundation
import Ground
import Ingest
import Query
import Synthesis
import Testing
import Verify

/// Issue 12: `reverify` reads a record straight from the CAS (a `StoredBlobSource` per blob,
/// presence and listings from the record's stored paths): on a faulted dump it finds what
/// ingest found — every sidecar (state, digests, notes), unreferenced file, ring reject,
/// bundle, stored file and media fact — and no `exhibit-reverify-*` folder appears in the
/// temporary directory while it runs.
@Suite struct ReverifyFromStoreTests {
    /// Notes about entries the archive does not store: a symlink in `evidence/` is reported at
    /// ingest and never followed or kept, so from the store its sink is only absent (same state).
    static let unstoredNotes: Set<String> = ["symlink", "symlink-escapes-dump"]

    /// The findings of a report without the paths that name where it was read.
    static func findings(_ r: CaptureReport) -> [String] {
        func tail(_ p: String?) -> String { p.map { $0.split(separator: "/").suffix(2).joined(separator: "/") } ?? "-" }
        return ["\(r.integrity) \(r.sha256?.hex ?? "-") \(r.size ?? 0) \(r.error?.code ?? "-")", "\(r.statusCodes)"]
            + r.sidecars.map { "\($0.sink) \($0.state) \($0.committedSha256?.hex ?? "-") \($0.actualSha256?.hex ?? "-") \(tail($0.file)) \($0.notes.filter { !unstoredNotes.contains($0) })" }
            + ["unreferenced \(r.unreferenced)", "ring \(r.ringRejected ?? [])"]
            + r.disclosure.map { "\(tail($0.file)) \($0.profile) \($0.result) \($0.failures.map(\.label)) \($0.openedLeaves) \($0.withheldCount)" }
            + r.files.map { "\($0.role) \($0.relativePath) \($0.sha256.hex) \($0.size)" }
            + (r.media ?? []).map { "\($0.role) \($0.file) \($0.facts != nil) \($0.error?.code ?? "-")" }
    }

    /// This process's `exhibit-reverify-<pid>-…` folders in the temporary directory now.
    static func scratchFolders() -> Set<String> {
        let mine = "exhibit-reverify-\(getpid())-"
        return Set(((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter { $0.hasPrefix(mine) })
    }

    /// Lists the temporary directory every millisecond until stopped, keeping every scratch
    /// folder of this process it saw (an exported record lives for its whole verification).
    final class ScratchWatch: @unchecked Sendable {
        private let lock = NSLock()
        private var stop = false
        private var seen: Set<String> = []
        private var thread: Thread?

        func start() {
            let t = Thread { [self] in
                while !lock.withLock({ stop }) {
                    let now = ReverifyFromStoreTests.scratchFolders()
                    lock.withLock { seen.formUnion(now) }
                    usleep(1000)
                }
            }
            thread = t
            t.start()
        }

        func finish() -> Set<String> {
            lock.withLock { stop = true }
            while thread?.isFinished == false { usleep(1000) }
            return lock.withLock { seen }
        }
    }

    @Test func reverifyOfAFaultedDumpRepeatsIngestWithNoTemporaryFolder() throws {
        let (root, _, verifier) = try DumpFixture.synthesized("reverify-store", stills: 2, seed: 43, faults: DumpFixture.stillFaults,
                                                            media: true)
        let archive = try DumpFixture.archive()
        var options = Ingestor.Options()
        options.jobs = 1
        options.agent = DumpFixture.agent
        options.thumbnails = false
        var items: [IngestItem] = []
        _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: options).run(Ingestor.discover([root]).captures) { items.append($0) }
        var atIngest: [ContentID: [CaptureReport]] = [:]
        for item in items where item.outcome == .new { if let id = item.recordId { atIngest[id, default: []].append(item.report) } }
        #expect(atIngest.count >= DumpFixture.stillFaults.count)
        #expect(atIngest.values.contains { $0.contains { $0.parallax != nil } }, "libav read the stored blobs too")
        let watch = ScratchWatch()
        watch.start()
        let (pairs, seen) = try DumpFixture.reverifyPairs(archive, verifier, atIngest: atIngest)
        for (first, again) in pairs {
            let want = Self.findings(first), got = Self.findings(again)
            #expect(got.count == want.count, "\(first.path): \(got.count) findings, at ingest \(want.count)")
            for (g, w) in zip(got, want) where g != w { Issue.record("\(first.path): reverify \(g), at ingest \(w)") }
        }
        #expect(seen == atIngest.count)
        let folders = watch.finish()
        #expect(folders.isEmpty, "reverify made temporary folders: \(folders.sorted())")
    }
}
