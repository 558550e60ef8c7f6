import Archive
import Foundation
import Ground
import Ingest
import Verify

/// `worker`: claims captures from the archive's work queue (`ingest --enqueue`) and ingests
/// each exactly as `ingest` does — same pipeline, same records and custody events — on any
/// number of machines at once (docs/postgres.md "Work queue commands").
struct WorkerCommand: Command {
    static let name = "worker"
    static let abstract = "Ingest the captures of the archive's work queue (after ingest --enqueue); any number at once."
    static let discussion = """
    Needs an archive with a PostgreSQL index (init --index). Claims up to 4 × --jobs jobs at a
    time (SELECT … FOR UPDATE SKIP LOCKED: two workers never take the same job), leases them for
    --lease seconds and renews the lease every third of it while it works, and ingests them
    as 'ingest' would (--jobs verification threads, several captures per record transaction):
    each job is marked done in the transaction that commits its capture's record and custody
    events, so a capture is ingested once whatever happens to its worker. A capture that fails is given back to the
    queue (pending again after 5 s) until its job runs out of attempts (5), then failed with
    its error; a worker killed mid-job leaves its jobs to be claimed again when their lease
    runs out. Exits when nothing is pending or running; --follow waits for new jobs instead.
    The worker reads each capture at the absolute path it was enqueued under: workers on
    other machines see the dump through a shared mount at that same path. Prints what ingest
    prints (one line or JSON object per capture, then the summary). Exit 0 when every capture
    it ingested is clean, 1 when one needs attention or could not be stored, 3 when the
    archive or its index cannot be used.
    """
    static let options = [
        OptionSpec("jobs", short: "j", value: "n", help: "Verification threads; 4 × n jobs are claimed at a time (default: the core count)."),
        OptionSpec("lease", value: "seconds", help: "Lease of a claimed job, renewed while working (default: 60)."),
        OptionSpec("follow", help: "Wait for new jobs when the queue is empty instead of exiting."),
    ] + IngestCommand.options.filter { ["operator", "organization", "no-media", "defer-media"].contains($0.long) }

    /// Jobs claimed per verification thread: a claim's captures run as one `Ingestor.run`, so
    /// the wait for its slowest capture is shared by 4 × `--jobs` captures, not `--jobs`.
    static let claimPerThread = 4

    /// Seconds before a capture that failed is claimable again.
    static let retryAfter = 5.0

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try FileLimitSetting.check(context, command: name)
        let options = try IngestCommand.ingestorOptions(args, context, command: name)
        let lease = try args.double("lease", in: 1...86_400) ?? 60
        let queue = try context.workQueue(command: name)
        let renewals = try context.workQueue(command: name)
        let archive = try context.openArchive()
        let measuresMedia = !args.flag("no-media") && !args.flag("defer-media")
        let worker = try QueueWorker(queue: queue, archive: archive, makeVerifier: {
            var verifier = CaptureVerifier(signerAnchors: try archive.trustAnchors.trustAnchors(.signer),
                                           tsaAnchors: try archive.trustAnchors.trustAnchors(.tsa))
            verifier.measuresMedia = measuresMedia
            return verifier
        }, options: options, lease: lease, name: "\(ProcessInfo.processInfo.hostName):\(getpid())", console: context.console, json: context.json)
        let renewer = LeaseRenewer(queue: renewals, leases: worker.held, seconds: lease)
        renewer.start()
        defer { renewer.stop() }
        let start = Date()
        try worker.run(follow: args.flag("follow"))
        var summary = worker.summary
        summary.seconds = Date().timeIntervalSince(start)
        let c = context.console
        if context.json { c.json(IngestCommand.json(summary)) } else { for line in IngestCommand.text(summary) { c.out(line) } }
        return summary.isClean && worker.jobsFailed == 0 ? .success : .failure
    }
}
