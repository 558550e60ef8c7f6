import Archive
import ArchiveHandle
import Foundation
import Ground
import Ingest
import Verify

/// The claim → ingest → complete loop of one `worker` process.
final class QueueWorker {
    let queue: any WorkQueue
    let archive: Archive
    /// The verifier for the archive's trust anchors as of the last claim (`currentVerifier`).
    private var verifier: CaptureVerifier
    /// Makes a verifier for the trust anchors the archive holds now.
    let makeVerifier: () throws -> CaptureVerifier
    /// The role and fingerprint of every anchor `verifier` was made with.
    private var anchorPrints: [String]
    let options: Ingestor.Options
    let lease: Double
    let name: String
    let console: Console
    let json: Bool
    /// The jobs this worker holds (renewed by `LeaseRenewer`).
    let held = HeldLeases()
    private(set) var summary = IngestSummary()
    /// Jobs given back failed (a capture not stored, or a storage failure during its run).
    private(set) var jobsFailed = 0

    init(queue: any WorkQueue, archive: Archive, makeVerifier: @escaping () throws -> CaptureVerifier, options: Ingestor.Options,
         lease: Double, name: String, console: Console, json: Bool) throws {
        (self.queue, self.archive, self.makeVerifier, self.options, self.lease) = (queue, archive, makeVerifier, options, lease)
        (self.name, self.console, self.json) = (name, console, json)
        anchorPrints = try Self.anchorPrints(archive)
        verifier = try makeVerifier()
    }

    static func anchorPrints(_ archive: Archive) throws -> [String] {
        try archive.trustAnchors.list(nil).map { "\($0.role.rawValue):\($0.fingerprint)" }
    }

    /// The verifier for the trust anchors the archive holds now: made again when `trust add` or
    /// `trust remove` changed them since the last claim (a `--follow` worker runs for days, and
    /// each capture is verified against the anchors of the time it is worked, as `ingest` does).
    func currentVerifier() throws -> CaptureVerifier {
        let prints = try retrying { try Self.anchorPrints(archive) }
        if prints != anchorPrints {
            verifier = try makeVerifier()
            anchorPrints = prints
        }
        return verifier
    }

    /// Claims and ingests until nothing is pending or running (with `follow`: forever). A queue
    /// that cannot be reached is retried for about 30 s (a restarting server), then thrown.
    func run(follow: Bool) throws {
        while true {
            let claimed = try retrying { try queue.claim(worker: name, lease: lease, limit: WorkerCommand.claimPerThread * options.jobs) }
            if claimed.isEmpty {
                let s = try retrying { try queue.summary() }
                if !follow && s.pending == 0 && s.running == 0 { return }
                Thread.sleep(forTimeInterval: follow ? 1 : 0.25)
                continue
            }
            ingest(claimed)
        }
    }

    /// Ingests one claim's captures; each job completes in the record transaction that commits its
    /// capture (several captures per transaction; a batch that fails is retried one by one by the
    /// Ingestor, so a lost lease loses only its own capture).
    func ingest(_ claimed: [WorkLease]) {
        var byFile: [String: WorkLease] = [:]
        var locations: [CaptureLocation] = []
        for l in claimed {
            guard let location = try? JSONDecoder().decode(CaptureLocation.self, from: Data(l.payload.utf8)) else {
                giveBack(l, error: "\(StatusCode.queuePayloadInvalid): job \(l.jobId) does not name a capture location", permanent: true)
                continue
            }
            guard byFile[location.deliveryFile] == nil else {
                giveBack(l, error: "\(StatusCode.queueDuplicate): \(location.deliveryFile) is in this claim twice; retried", permanent: false)
                continue
            }
            byFile[location.deliveryFile] = l
            locations.append(location)
            held.add(l)
        }
        let leases = byFile
        let queue = self.queue
        var options = self.options
        options.inCommit = { items, writer in
            for item in items where item.outcome != .failed {
                guard let l = leases[item.path] else { continue }
                try queue.complete(l, result: item.recordId?.hex, in: writer)
            }
        }
        do {
            let ingestor = Ingestor(archive: archive, verifier: try currentVerifier(), options: options)
            _ = try ingestor.run(locations) { item in
                let l = leases[item.path]
                if let l { held.remove(l) }
                if item.outcome == .failed, let l {
                    if item.error?.hasPrefix(StatusCode.queueLeaseLost) == true {
                        console.err("worker: job \(l.jobId) (\(l.key)) was taken over (lease lost); nothing of it committed here")
                        return
                    }
                    giveBack(l, error: item.error ?? "failed", permanent: false)
                }
                summary.count(item)
                if json { console.json(IngestCommand.json(item)) } else { console.out(IngestCommand.text(item)) }
            }
        } catch {
            // The archive itself failed (storage, index, its trust anchors unreadable): the jobs not
            // ended go back to the queue.
            console.err("Error: \(error)")
            for l in held.removeAll() { giveBack(l, error: "\(error)", permanent: false) }
            // Not straight to the next claim: a store that is down would fail every job in turn.
            Thread.sleep(forTimeInterval: WorkerCommand.retryAfter)
        }
    }

    /// Fails an attempt (pending again after `retryAfter` while attempts remain).
    func giveBack(_ l: WorkLease, error: String, permanent: Bool) {
        jobsFailed += 1
        do {
            try retrying { _ = try queue.fail(l, error: error, permanent: permanent, retryAfter: WorkerCommand.retryAfter) }
        } catch {
            console.err("worker: job \(l.jobId) (\(l.key)) could not be given back: \(error)")
        }
    }

    /// `body`, run again while it fails with an error the queue may retry after
    /// (`WorkQueue.mayRetry`: PostgreSQL's retryable errors, and the connection broken during
    /// its COMMIT, `pg.commit.unknown`, seen when the server restarts under a worker), for about
    /// 30 s: each caller is safe to run again. A claim that did commit
    /// leased its jobs to this worker, which never learns of them; they are claimed again when
    /// the lease runs out. A summary only reads. A give-back is fenced by the lease's attempt: a
    /// second one of a give-back that committed is refused (`queue.lease.lost`) and reported.
    func retrying<R>(_ body: () throws -> R) throws -> R {
        var tries = 0
        while true {
            do { return try body() } catch let e where queue.mayRetry(after: e) && tries < 60 {
                tries += 1
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }
}
