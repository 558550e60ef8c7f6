import Archive
import ArchiveHandle
import Crypto
import Custody
import Foundation
import Ground
import Query
import Verify

/// Bulk ingest: walks dumps, verifies each capture on N worker threads (staging its files in
/// the CAS first, so each file is hashed once and the verifier takes the CAS digests), and
/// feeds ONE writer that commits each capture — its blobs, its record and index entries, its
/// custody events — in one transaction, several captures per commit.
///
/// Captures commit in discovery order (a worker may finish early; the writer waits for the
/// next in order), so outcomes (`new` before `variant`) are deterministic.
public final class Ingestor: Sendable {
    public struct Options: Sendable {
        /// Verification workers (default: the core count).
        public var jobs = ProcessInfo.processInfo.activeProcessorCount
        /// Who is ingesting (custody events).
        public var agent = CustodyAgent.current()
        /// Files up to this size are staged in memory and written in the capture's transaction.
        public var inlineFileLimit = 4 << 20
        /// In-memory staging budget per capture; larger files and the rest stream in batches.
        public var inlineCaptureBudget = 16 << 20
        /// Most captures per commit, and most inline bytes per commit.
        public var batchCaptures = 64
        public var batchInlineBytes = 32 << 20
        /// How long the writer waits for the next capture in order while its batch is under
        /// `batchTarget(captures:)` (docs/ingest.md "Session 9"): a batch of a few captures costs
        /// nearly the commit of a full one (two `fdatasync`s, the B-tree pages written again).
        public var batchWait: TimeInterval = 0.1
        /// How far workers may run ahead of the writer: captures, and inline bytes waiting —
        /// two full batches, so the workers prepare the next batch while the writer commits one
        /// (with 32 MiB, one batch, they stalled whenever a commit outlasted preparing a batch).
        public var aheadCaptures = 256
        public var aheadInlineBytes = 64 << 20
        /// Make and store a thumbnail of each new record's delivery file (a derived blob).
        public var thumbnails = true
        /// Commit records with their media analyses `pending` (`ingest --defer-media`): no
        /// thumbnail is made and the verifier should not measure media; `analyze` does both
        /// later from the stored blobs (`Analysis.Analyzer`).
        public var deferAnalyses = false
        /// Called inside each record transaction with the items it is about to commit (after
        /// their records and events were written, before the commit); throwing rolls that
        /// transaction back and fails its captures. The queue worker completes a capture's job
        /// here, so "done" commits with the record (docs/postgres.md "Work queue commands").
        public var inCommit: (@Sendable ([IngestItem], any RecordWriter<IndexedRecord>) throws -> Void)?
        public init() {}
    }

    public let archive: Archive
    public let verifier: CaptureVerifier
    public let options: Options

    public init(archive: Archive, verifier: CaptureVerifier, options: Options = Options()) {
        self.archive = archive
        self.verifier = verifier
        self.options = options
    }

    /// Every capture under `paths`, in order (`CaptureVerifier.discover` per path); paths that
    /// cannot be walked are returned apart.
    public static func discover(_ paths: [String]) -> (captures: [CaptureLocation], errors: [String]) {
        let found = walk(paths)
        return (found.captures, found.errors)
    }

    /// `discover` with the walk's problems: every entry under `paths` that could not be read
    /// or was not entered (`walk.*`, per path), which make the run's exit non-zero.
    public static func walk(_ paths: [String], limits: WalkLimits = .standard)
        -> (captures: [CaptureLocation], errors: [String], problems: [WalkProblem]) {
        var captures: [CaptureLocation] = []
        var errors: [String] = []
        var problems: [WalkProblem] = []
        var seen = Set<String>()
        for p in paths {
            do {
                let found = try CaptureVerifier.walk(p, limits: limits)
                for c in found.captures where seen.insert(c.deliveryFile).inserted { captures.append(c) }
                problems += found.problems
            } catch {
                errors.append("\(error.code): \(error.message)")
            }
        }
        return (captures, errors, problems)
    }

    /// Ingests `captures`. `onItem` is called on the writer (calling) thread after each
    /// capture's commit, in discovery order. Throws only when the archive cannot be written
    /// (disk full, LMDB failure): what committed before stays.
    public func run(_ captures: [CaptureLocation], onItem: (IngestItem) -> Void) throws -> IngestSummary {
        let start = Date()
        var summary = IngestSummary()
        // Workers run ahead of the writer by up to `aheadCaptures` captures (while the writer
        // commits), holding at most `aheadInlineBytes` of inline-staged bytes.
        let channel = OrderedChannel<PreparedCapture>(count: captures.count, window: max(options.aheadCaptures, 2 * options.jobs),
                                                      minWindow: 2 * options.jobs, budget: options.aheadInlineBytes,
                                                      weight: { $0.inlineBytes })
        let workers = max(1, min(options.jobs, captures.count))
        // Every worker has returned before `run` does: workers stage into the environment, and
        // a writer that fails (disk full) must not let the caller close it under them (issue 17:
        // SIGSEGV in pthread_rwlock_rdlock after a failed commit).
        let finished = DispatchGroup()
        for _ in 0..<workers {
            finished.enter()
            let thread = Thread { [self] in
                defer { finished.leave() }
                while let i = channel.claim() {
                    channel.deliver(i, prepare(captures[i]))
                }
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        // The drafter forms the batches and drafts each (its new records and custody events,
        // `draft(_:head:mismatch:)`) while the writer commits the one before: encoding and
        // hashing leave the write transaction, and the writer's thread does the LMDB work and
        // the durable commit only (docs/ingest.md "Session 10").
        let handoff = DraftHandoff<DraftedBatch>(capacity: 1)
        let stale = Locked(false)  // a drafted event met another chain head than predicted
        finished.enter()
        let drafter = Thread { [self] in
            defer {
                handoff.finish()
                finished.leave()
            }
            var head: CustodyHead? = try? archive.custodyStore.head()
            var next = 0
            let target = batchTarget(captures: captures.count)
            while next < captures.count {
                guard handoff.waitForRoom(), let first = channel.take(next) else { return }
                var batch = [first]
                next += 1
                var inline = first.inlineBytes
                // Up to the target the drafter waits (at most `batchWait`) for the next capture
                // in order; past it, it takes only what is ready.
                let deadline = Date(timeIntervalSinceNow: options.batchWait)
                while next < captures.count, batch.count < options.batchCaptures, inline < options.batchInlineBytes,
                      let p = batch.count < target ? channel.take(next, until: deadline) : channel.takeIfReady(next) {
                    batch.append(p)
                    inline += p.inlineBytes
                    next += 1
                }
                // The predicted head is unknown or was wrong: read it once the writer has
                // committed every batch handed over (another process appended, or a capture
                // did not make the new record its draft assumed).
                if head == nil || stale.withLock({ $0 }) {
                    guard handoff.waitUntilCommitted() else { return }
                    stale.withLock { $0 = false }
                    head = try? archive.custodyStore.head()
                }
                guard handoff.put(draft(batch, head: &head, mismatch: { stale.withLock { $0 = true } })) else { return }
            }
        }
        drafter.stackSize = 4 << 20
        drafter.start()
        defer {
            channel.cancel()
            handoff.cancel()
            finished.wait()
            // Uploads the store still runs (S3's small blobs) finish before the caller may exit:
            // a failed run (radosgw killed) exited with threads inside libcurl, SIGSEGV.
            archive.blobs.drain()
        }
        while let drafted = handoff.take() {
            for item in try commit(drafted) {
                summary.count(item)
                onItem(item)
            }
            handoff.markCommitted()
            // The batch's memory (inline bytes, reports) is freed on another thread, off the
            // writer's path.
            DispatchQueue.global(qos: .utility).async { withExtendedLifetime(drafted) {} }
        }
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// The batch the writer waits to fill before it commits: a sixteenth of the run, at least
    /// one and at most `batchCaptures`. A run of a few captures still commits capture by
    /// capture as they come (a kill lands between commits); a bulk run commits full batches
    /// instead of the two or three captures ready at each moment.
    func batchTarget(captures: Int) -> Int {
        min(options.batchCaptures, max(1, captures / 16))
    }
}
