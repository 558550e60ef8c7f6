import ArchivePostgres
import Foundation
import Postgres
import PostgresTestSupport
import Testing

/// Concurrency proofs with processes of their own (Tests/PostgresProbe), as workers on other
/// machines would be: two appending custody events as fast as they can, and queue workers
/// SIGKILLed while they hold a job.
@Suite struct ProcessConcurrencyTests {
    let db: MigratedSchema
    init() throws { db = try MigratedSchema() }

    /// Two processes append 400 custody events each, every event its own transaction, as fast
    /// as they can: every append succeeds, no seq is used twice or skipped, the appends
    /// interleave, and psql finds every link and hash holding.
    @Test func twoProcessesAppendingAtOnceKeepOneChain() throws {
        let dir = try Probe.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let perProcess = 400
        let probes = try ["a", "b"].map { try Probe("append", dir: dir, name: $0, [String(perProcess)], on: db) }
        #expect(Probe.waitReady(probes, dir: dir))
        Probe.go(dir)
        for p in probes { #expect(p.wait() == 0, "\(p.name): \(p.stderr)") }
        let seqs = probes.map { $0.lines.compactMap { Int($0) } }
        #expect(seqs.map(\.count) == [perProcess, perProcess])
        let all = (seqs[0] + seqs[1]).sorted()
        #expect(all == Array(1...(2 * perProcess)), "a seq used twice or skipped")
        // Each process saw its own seqs grow, and the two took turns (they ran at once).
        #expect(seqs.allSatisfy { $0 == $0.sorted() })
        let owner = Dictionary(uniqueKeysWithValues: seqs[0].map { ($0, 0) } + seqs[1].map { ($0, 1) })
        let turns = (2...(2 * perProcess)).filter { owner[$0] != owner[$0 - 1] }.count
        #expect(turns > 1, "the processes did not run at the same time")
        let n = 2 * perProcess
        #expect(db.test.custodyVerdict() == "\(n)|\(n)|1|\(n)|0|t")
        try db.connection.read { tx throws in
            #expect(try CustodyChain.brokenLinks(in: tx) == [])
            // Each event is the one its process wrote for that seq (object `label-i`).
            for (label, mine) in zip(["a", "b"], seqs) {
                for i in [0, perProcess / 2, perProcess - 1] {
                    #expect(try CustodyChain.events(forObject: "\(label)-\(i)", in: tx).map(\.seq) == [UInt64(mine[i])])
                }
            }
        }
        print("ProcessConcurrencyTests.twoProcessesAppendingAtOnceKeepOneChain: \(turns) turns between the writers")
    }

    func summary() throws -> PostgresWorkQueue.Summary { try db.connection.read { try PostgresWorkQueue.summary(in: $0) } }

    func claim(_ worker: String, lease: Double = 30) throws -> PostgresWorkQueue.Lease? {
        try db.connection.write { tx in try PostgresWorkQueue.claim(worker: worker, lease: lease, in: tx) }.first
    }

    func makeEffects() throws {
        try db.connection.execute("CREATE TABLE job_effects (job_id bigint NOT NULL, key text NOT NULL, worker text NOT NULL, attempt integer NOT NULL)")
    }

    /// A worker process claims the only job and keeps renewing its lease (1 s): for longer than
    /// the lease nobody else gets it. SIGKILLed, it renews no more: until its lease runs out the
    /// job is still not taken; then the next claim takes it as attempt 2, and attempt 1's lease
    /// is good for nothing.
    @Test func aSIGKILLedWorkersLeaseRunsOutAndTheJobIsTakenAgain() throws {
        try makeEffects()
        try db.connection.write { tx in _ = try PostgresWorkQueue.enqueue([("capture-0", "{}")], in: tx) }
        let dir = try Probe.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let worker = try Probe("work", dir: dir, name: "w", ["1.0", "3600000"], on: db)
        #expect(Probe.waitReady([worker], dir: dir))
        Probe.go(dir)
        #expect(Probe.poll(30) { worker.lines.contains("claimed 1 1") }, "\(worker.lines) \(worker.stderr)")
        // Renewed while it lives: 2.5 leases later the job is still its own and not expired.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(worker.process.isRunning, "\(worker.stderr)")
        #expect(try claim("test") == nil)
        #expect(try summary() == PostgresWorkQueue.Summary(running: 1))
        worker.kill()
        #expect(try claim("test") == nil, "taken before the dead worker's lease ran out")
        #expect(Probe.poll(5) { (try? summary()) == PostgresWorkQueue.Summary(running: 1, expired: 1) })
        let taken = try #require(try claim("test"))
        #expect(taken.jobId == 1 && taken.attempt == 2)
        let dead = PostgresWorkQueue.Lease(jobId: 1, key: "capture-0", payload: "{}", attempt: 1, expires: Date())
        #expect(throws: ArchivePostgresError.leaseLost(jobId: 1, attempt: 1)) {
            try db.connection.write { tx in try PostgresWorkQueue.complete(dead, in: tx) }
        }
        try db.connection.write { tx in try PostgresWorkQueue.complete(taken, result: "test", in: tx) }
        #expect(try summary() == PostgresWorkQueue.Summary(done: 1))
        #expect(db.test.psql("SELECT count(*) FROM job_effects").output == "0")
    }

    /// Three worker processes over 200 jobs (lease 0.4 s, 50 ms of work each); 20 times one
    /// that holds a job is SIGKILLed at a random moment of its work and started again: every
    /// job ends done, its effect committed exactly once (by the attempt that completed it),
    /// none lost; each job a killed worker held was completed by it just before the kill or
    /// taken again on a later attempt.
    @Test func workersSIGKILLedAtRandomLoseNoJobAndDoNoneTwice() throws {
        try makeEffects()
        let jobs = 200, kills = 20
        try db.connection.write { tx in
            _ = try PostgresWorkQueue.enqueue((0..<jobs).map { ("capture-\($0)", "{}") }, maxAttempts: 50, in: tx)
        }
        let dir = try Probe.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func start(_ w: Int, generation: Int) throws -> Probe {
            try Probe("work", dir: dir, name: "w\(w)-\(generation)", ["0.4", "50"], on: db)
        }
        /// The job a worker's output says it holds (its last line is a claim).
        func held(_ p: Probe) -> (id: Int64, attempt: Int)? {
            guard let f = p.lines.last?.split(separator: " "), f.count == 3, f[0] == "claimed",
                  let id = Int64(f[1]), let attempt = Int(f[2]) else { return nil }
            return (id, attempt)
        }
        var workers = try (0..<3).map { try start($0, generation: 0) }
        #expect(Probe.waitReady(workers, dir: dir))
        Probe.go(dir)
        var rng = SystemRandomNumberGenerator()
        var killed: [(worker: String, id: Int64, attempt: Int)] = []
        let deadline = Date().addingTimeInterval(120)
        while killed.count < kills && Date() < deadline {
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.15, using: &rng))
            let holding = workers.indices.filter { held(workers[$0]) != nil }
            guard let w = holding.randomElement(using: &rng) else { continue }
            let victim = workers[w]
            victim.kill()
            if let job = held(victim) { killed.append((victim.name, job.id, job.attempt)) }
            workers[w] = try start(w, generation: killed.count)
            #expect(Probe.waitReady([workers[w]], dir: dir))
        }
        #expect(killed.count == kills, "the queue ran dry after \(killed.count) kills")
        for p in workers { #expect(p.wait() == 0, "\(p.name): \(p.stderr)") }
        #expect(try summary() == PostgresWorkQueue.Summary(done: jobs))
        let effects = db.test.psql("SELECT count(*), count(DISTINCT job_id) FROM job_effects").output
        #expect(effects == "\(jobs)|\(jobs)", "an effect lost or committed twice")
        // Each job's effect is the completing attempt's, and its result names that worker.
        let mismatched = db.test.psql("""
            SELECT count(*) FROM work_jobs j JOIN job_effects e ON e.job_id = j.id
            WHERE e.attempt <> j.attempts OR e.worker <> j.result OR j.state <> 'done'
            """).output
        #expect(mismatched == "0")
        var retaken = 0
        for k in killed {
            let row = db.test.psql("SELECT j.attempts, e.worker FROM work_jobs j JOIN job_effects e ON e.job_id = j.id WHERE j.id = \(k.id)").output
            let f = row.split(separator: "|").map(String.init)
            let later = (Int(f.first ?? "") ?? 0) > k.attempt
            #expect(later || (f.count == 2 && f[1] == k.worker), "job \(k.id) held by killed \(k.worker): \(row)")
            if later { retaken += 1 }
        }
        #expect(retaken > 0)
        print("ProcessConcurrencyTests.workersSIGKILLedAtRandomLoseNoJobAndDoNoneTwice: \(killed.count) kills of a worker holding a job, \(retaken) of those jobs taken again")
    }
}
