import ArchiveLMDB
import Crypto
import Foundation
import Ground
import Ingest
import Query
import Synthesis
import Testing
import Verify

/// Issue 12 items 1–2: what ingest verifies is exactly what it stores. A delivery file and a
/// sidecar rewritten in place by another thread while ingest runs never leave a record whose
/// findings differ from `reverify` over the stored blobs: each capture is stored consistently
/// or fails whole with `ingest.sourceChanged` (and a re-run ingests it).
@Suite(.serialized) struct SourceChangeTests {
    /// Rewrites `paths` in place (one byte in the middle, alternately changed and restored),
    /// one write every 5 ms (each in its own timestamp tick), until stopped.
    final class Rewriter: @unchecked Sendable {
        let paths: [String]
        private let stop = NSLock()
        private var stopped = false
        private var thread: Thread?
        private(set) var writes = 0

        init(_ paths: [String]) { self.paths = paths }

        func start() {
            let t = Thread { [self] in
                var flip: UInt8 = 0
                while !(stop.withLock { stopped }) {
                    for p in paths {
                        let fd = open(p, O_WRONLY)
                        guard fd >= 0 else { continue }
                        var st = stat()
                        fstat(fd, &st)
                        var b: UInt8 = 0x55 ^ flip
                        _ = pwrite(fd, &b, 1, off_t(st.st_size / 2))
                        close(fd)
                        writes += 1
                        usleep(100)  // a write to each file every ~0.2 ms: a staging read (tens of µs) must overlap some (a read is the only window since issue 12 (b))
                    }
                    flip ^= 0xff
                }
            }
            thread = t
            t.start()
        }

        func finish() {
            stop.withLock { stopped = true }
            while thread?.isFinished == false { usleep(1_000) }
        }
    }

    func ingest(_ archive: LMDBArchive, _ root: String, _ verifier: CaptureVerifier, inline: Bool) throws -> [IngestItem] {
        var options = Ingestor.Options()
        options.jobs = 2
        options.agent = DumpFixture.agent
        options.thumbnails = false
        if !inline { options.inlineFileLimit = 0 }  // every file streamed: the verifier reads the hashed descriptor
        let (captures, errors) = Ingestor.discover([root])
        #expect(errors.isEmpty)
        var items: [IngestItem] = []
        _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: options).run(captures) { items.append($0) }
        return items
    }

    @Test func rewritesDuringIngestNeverLeaveARecordReverifyContradicts() throws {
        let (root, expected, verifier) = try DumpFixture.synthesized("source-change", stills: 3, seed: 29)
        let target = try #require(expected.captures.first)
        let audio = try #require(target.files.first { $0.hasSuffix(".caf") })
        var sawChange = 0, sawStored = 0
        for iteration in 0..<8 {
            let archive = try DumpFixture.archive()
            let rewriter = Rewriter([root + "/" + target.deliveryFile, root + "/" + audio])
            rewriter.start()
            let items = try ingest(archive, root, verifier, inline: iteration % 2 == 0)
            rewriter.finish()
            #expect(items.count == expected.captures.count)
            for item in items {
                if item.outcome == .failed {
                    #expect(item.error?.contains(StatusCode.ingestSourceChanged) == true, "iteration \(iteration): \(item.error ?? "")")
                    #expect(item.sourcePath.hasSuffix(target.deliveryFile))
                    sawChange += 1
                } else {
                    #expect(item.outcome == .new, "iteration \(iteration): \(item.outcome)")
                    if item.sourcePath.hasSuffix(target.deliveryFile) { sawStored += 1 }
                }
            }
            // Reverify from the stored blobs finds exactly what ingest recorded.
            let stored = Dictionary(items.filter { $0.outcome != .failed }.map { ($0.recordId, $0.report) }, uniquingKeysWith: { (a: CaptureReport, _: CaptureReport) in a })
            var results = 0
            try Reverifier(archive: try archive.archive(), verifier: verifier, agent: DumpFixture.agent).run(nil) { r in
                results += 1
                let atIngest = stored[r.recordId]
                #expect(atIngest != nil, "iteration \(iteration): a record ingest did not report")
                #expect(r.report?.integrity == atIngest?.integrity, "iteration \(iteration): integrity \(String(describing: r.report?.integrity)) vs \(String(describing: atIngest?.integrity))")
                #expect(r.report?.sha256 == atIngest?.sha256)
                #expect(r.report?.sidecars.map(\.state) == atIngest?.sidecars.map(\.state),
                        "iteration \(iteration): sidecars differ from reverify")
            }
            #expect(results == stored.count)
        }
        // The files were really being rewritten, and each outcome happened (stored, or failed
        // whole) — the test is not vacuous in either direction over 8 runs.
        #expect(sawChange + sawStored == 8)
        #expect(sawChange > 0, "no run caught a change: the rewriter did not overlap ingest")

        // Left alone, a re-run ingests the capture.
        let archive = try DumpFixture.archive()
        let calm = try ingest(archive, root, verifier, inline: false)
        #expect(calm.allSatisfy { $0.outcome == .new }, "\(calm.map { "\($0.outcome) \($0.error ?? "")" })")
    }
}
