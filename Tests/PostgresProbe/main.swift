// Test helper of ArchivePostgresTests (not a product): one process of a concurrency proof
// against the real server, so a test can run several at once and SIGKILL them.
//
//   PostgresProbe append DIR LABEL N
//       appends N custody events (TestChain.event rule, object `LABEL-i`), each in its own
//       transaction, as fast as it can; prints each seq it got, one a line
//   PostgresProbe work DIR WORKER LEASE WORK_MS
//       claims queue jobs one at a time (lease LEASE seconds), "works" WORK_MS ms on each while
//       renewing its lease every LEASE/3 s, then commits in one transaction a row of
//       `job_effects (job_id, key, worker, attempt)` (a table the test made) and the job's
//       completion; exits 0 when no job is pending or running. Prints `claimed ID ATTEMPT` and
//       `done ID ATTEMPT`.
//
// Both first connect, then write DIR/ready-LABEL (DIR/ready-WORKER) and wait until DIR/go
// exists, so the test starts them together. Connection: $PROBE_URL (a libpq URI); tables in
// the PostgreSQL schema $PROBE_SCHEMA. Exit 1 with the error on stderr on any failure.
import ArchivePostgres
import Foundation
import Postgres
import PostgresTestSupport

let env = ProcessInfo.processInfo.environment

/// One line on stdout, unbuffered (the test reads it while the probe runs, and may kill it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func connect() throws -> Connection {
    let schema = try ArchiveSchema(namespace: env["PROBE_SCHEMA"] ?? "")
    var options = Connection.Options()
    options.applicationName = "postgres-probe"
    options.settings = schema.sessionSettings
    let c = try Connection(env["PROBE_URL"] ?? "", options: options)
    try schema.check(c)
    return c
}

/// Announces DIR/ready-NAME, then waits (at most 60 s) for DIR/go.
func startTogether(_ dir: String, _ name: String) throws {
    _ = FileManager.default.createFile(atPath: dir + "/ready-" + name, contents: nil)
    let deadline = Date().addingTimeInterval(60)
    while !FileManager.default.fileExists(atPath: dir + "/go") {
        guard Date() < deadline else { throw ProbeError("no \(dir)/go within 60 s") }
        Thread.sleep(forTimeInterval: 0.005)
    }
}

struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func append(_ dir: String, label: String, count: Int) throws {
    let c = try connect()
    try startTogether(dir, label)
    for i in 0..<count {
        let head = try c.write { tx in try CustodyChain.append(objects: ["\(label)-\(i)"], in: tx, TestChain.event("\(label) \(i)")) }
        say("\(head.seq)")
    }
}

func work(_ dir: String, worker: String, lease: Double, workMilliseconds: Int) throws {
    let c = try connect()
    try startTogether(dir, worker)
    while true {
        guard let job = try c.write({ tx in try PostgresWorkQueue.claim(worker: worker, lease: lease, in: tx) }).first else {
            let s = try c.read { tx in try PostgresWorkQueue.summary(in: tx) }
            if s.pending == 0 && s.running == 0 { return }
            Thread.sleep(forTimeInterval: 0.02)
            continue
        }
        say("claimed \(job.jobId) \(job.attempt)")
        let end = Date().addingTimeInterval(Double(workMilliseconds) / 1000)
        var renewAt = Date().addingTimeInterval(lease / 3)
        while Date() < end {
            Thread.sleep(forTimeInterval: min(0.01, max(0, end.timeIntervalSinceNow)))
            if Date() >= renewAt {
                try c.write { tx in _ = try PostgresWorkQueue.renew(job, for: lease, in: tx) }
                renewAt = Date().addingTimeInterval(lease / 3)
            }
        }
        try c.write { tx in
            try tx.execute("INSERT INTO job_effects (job_id, key, worker, attempt) VALUES ($1, $2, $3, $4)",
                           [.int64(job.jobId), .text(job.key), .text(worker), .int32(Int32(job.attempt))])
            try PostgresWorkQueue.complete(job, result: worker, in: tx)
        }
        say("done \(job.jobId) \(job.attempt)")
    }
}

let args = CommandLine.arguments
do {
    switch args.count > 1 ? args[1] : "" {
    case "append" where args.count == 5:
        guard let n = Int(args[4]) else { throw ProbeError("N: \(args[4])") }
        try append(args[2], label: args[3], count: n)
    case "work" where args.count == 6:
        guard let lease = Double(args[4]), let ms = Int(args[5]) else { throw ProbeError("LEASE, WORK_MS: \(args[4]) \(args[5])") }
        try work(args[2], worker: args[3], lease: lease, workMilliseconds: ms)
    default:
        FileHandle.standardError.write(Data("usage: PostgresProbe append DIR LABEL N | work DIR WORKER LEASE WORK_MS\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("PostgresProbe: \(error)\n".utf8))
    exit(1)
}
