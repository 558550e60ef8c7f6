import Archive
import Foundation

/// `queue`: the archive's work queue at a glance (docs/postgres.md "Work queue commands").
struct QueueCommand: Command {
    static let name = "queue"
    static let abstract = "Show the work queue: pending, running, done and failed jobs, and the errors of failed ones."
    static let discussion = """
    Needs an archive with a PostgreSQL index (init --index). Prints the number of jobs in each
    state — pending, running (of which expired: a lease ran out, its worker presumably gone;
    the job is claimed again), done, failed — then one line per failed job:
    <state> <key> attempts <n>/<max> [worker <host:pid>] [error: <code: message>]. --state S
    lists the jobs in state S instead (pending, running, expired, done or failed), at most
    --limit (default 100). A job's key is its dump root, '//', and the capture's delivery file
    under it. JSON: one {"type":"job",...} line per job listed, then {"type":"queue",...} with
    the counts. Exit 1 when any job failed, else 0.
    """
    static let options = [
        OptionSpec("state", value: "state", help: "List the jobs in this state: pending, running, expired, done or failed (default: failed)."),
        OptionSpec("limit", value: "n", help: "Most jobs listed (default: 100)."),
    ]

    static let states = ["pending", "running", "expired", "done", "failed"]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let state = args.value("state") ?? "failed"
        guard states.contains(state) else {
            throw UsageError("--state must be one of \(states.joined(separator: ", ")), not '\(state)'", command: name)
        }
        let limit = try args.value("limit").map { text in
            guard let n = Int(text), (1...1_000_000).contains(n) else { throw UsageError("--limit must be 1…1000000, not '\(text)'", command: name) }
            return n
        } ?? 100
        let queue = try context.workQueue(command: name)
        // Expired jobs are running ones whose lease ran out.
        let wanted = WorkJobState(rawValue: state == "expired" ? "running" : state)!
        let (summary, jobs) = try queue.snapshot(state: wanted, expiredOnly: state == "expired", limit: limit)
        let c = context.console
        for job in jobs {
            if context.json { c.json(json(job)) } else { c.out(text(job)) }
        }
        let counts: [(String, Int)] = [("pending", summary.pending), ("running", summary.running), ("expired", summary.expired),
                                       ("done", summary.done), ("failed", summary.failed), ("total", summary.total)]
        if context.json {
            c.json(.object([("type", .string("queue"))] + counts.map { ($0.0, .int(Int64($0.1))) }))
        } else {
            c.out("queue: \(summary.total) jobs: pending \(summary.pending), running \(summary.running) (expired \(summary.expired)), done \(summary.done), failed \(summary.failed)")
        }
        return summary.failed > 0 ? .failure : .success
    }

    static func stateName(_ job: WorkJob) -> String { job.state == .running && job.leaseExpired ? "expired" : job.state.rawValue }

    static func text(_ job: WorkJob) -> String {
        var line = "\(stateName(job)) \(job.key) attempts \(job.attempts)/\(job.maxAttempts)"
        if let w = job.worker { line += " worker \(w)" }
        if let e = job.error { line += " error: \(e)" }
        return line
    }

    static func json(_ job: WorkJob) -> JSONValue {
        .object([("type", .string("job")), ("id", .int(job.id)), ("key", .string(job.key)), ("state", .string(stateName(job))),
                 ("attempts", .int(Int64(job.attempts))), ("maxAttempts", .int(Int64(job.maxAttempts))),
                 ("worker", job.worker.map { .string($0) } ?? .null), ("error", job.error.map { .string($0) } ?? .null),
                 ("result", job.result.map { .string($0) } ?? .null)])
    }
}
