import Foundation
import Postgres
import PostgresTestSupport
import ProcessSupport
import Testing

extension RGWTests {
    /// Issue 15's proof on the real servers: one faulted capture-synth dump enqueued in an
    /// archive with its blobs in RGW and its index in PostgreSQL; three worker processes, one of
    /// them SIGKILLed at a random moment once it holds a job, twenty times (each killed worker
    /// replaced); then the jobs left run out. Every capture is ingested exactly once, with the
    /// records and query answers of a plain LMDB ingest of the same dump; `audit` (every blob
    /// fetched back from the bucket) and `log --verify` are clean; the queue is empty, nothing
    /// lost or failed.
    @Suite struct WorkersKilled {
        @Test func threeWorkersOneKilledTwentyTimes() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let binary = try #require(S3Archive.binaryPath(), "exhibit-archive must be built")
            let schema = try TestSchema()
            let pg = schema.server.environment
            let prefix = S3Archive.prefix()
            defer { _ = s.peer(["purge", s.bucket, prefix]) }
            let dump = try s.dump(stills: 16, videos: 1, seconds: 1)
            let lmdb = s.root + "/lmdb", remote = s.root + "/s3pg"
            #expect(s.cli(["init", "--archive", lmdb]).code == .success)
            let reference = s.cli(["ingest", "--archive", lmdb] + S3Archive.trust(dump) + [dump])
            #expect(reference.code == .failure, "the faults need attention: \(reference.err)")
            let made = s.cli(["init", "--archive", remote, "--blobs", "s3://\(s.bucket)/\(prefix)", "--index", schema.server.url,
                              "--index-schema", schema.name], env: pg)
            #expect(made.code == .success, "\(made.out)\(made.err)")
            for anchor in [["trust", "add", dump + "/trust/signer-root.pem"], ["trust", "add", "--tsa", dump + "/trust/tsa-root.pem"]] {
                #expect(s.cli(anchor + ["--archive", remote], env: pg).code == .success)
            }
            #expect(s.cli(["ingest", "--enqueue", "--archive", remote, dump], env: pg).code != .archiveUnusable)
            // Enough attempts that twenty kills never exhaust a job (the default is 5).
            #expect(schema.psql("UPDATE work_jobs SET max_attempts = 100").status == 0)
            let environment = s.environment.merging(pg) { $1 }

            func start(_ name: String) throws -> Process {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: binary)
                p.arguments = ["worker", "--archive", remote, "--jobs", "1", "--lease", "2"]
                p.environment = environment
                p.standardOutput = FileHandle.nullDevice
                let log = s.root + "/\(name).err"
                _ = FileManager.default.createFile(atPath: log, contents: nil)
                p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
                try p.run()
                return p
            }
            let watch = try schema.connect()
            func holding(_ p: Process) throws -> Bool {
                try watch.read { tx in
                    try tx.execute("SELECT count(*) FROM work_jobs WHERE state = 'running' AND worker LIKE $1",
                                   [.text("%:\(p.processIdentifier)")]).single()?.decode(0, as: Int.self) ?? 0
                } > 0
            }

            // The third worker is killed and replaced twenty times; the two others join after
            // the fifth kill (before it the victim alone holds jobs, so those kills all land on
            // held jobs) and run to the end.
            var steady: [Process] = []
            var rng = SystemRandomNumberGenerator()
            var killedHolding = 0
            for trial in 0..<20 {
                if trial == 5 { steady = try (0..<2).map { try start("steady\($0)") } }
                let victim = try start("victim\(trial)")
                let deadline = Date().addingTimeInterval(5)
                while Date() < deadline, victim.isRunning, try !holding(victim) { Thread.sleep(forTimeInterval: 0.01) }
                Thread.sleep(forTimeInterval: Double.random(in: 0...0.3, using: &rng))
                if try holding(victim) { killedHolding += 1 }
                kill(victim.processIdentifier, SIGKILL)
                victim.waitUntilExit()
            }
            // The steady workers exit once nothing is pending or running; a last one takes
            // whatever the kills left behind.
            for w in steady { w.waitUntilExit() }
            let last = try start("last")
            last.waitUntilExit()
            for (i, w) in (steady + [last]).enumerated() {
                #expect(w.terminationReason == .exit && w.terminationStatus <= 1, "worker \(i): \(w.terminationReason) \(w.terminationStatus)")
            }
            #expect(killedHolding >= 5, "kills that hit a worker holding a job: \(killedHolding)")

            let captures = try #require(Int(schema.psql("SELECT count(*) FROM work_jobs").output))
            #expect(schema.psql("SELECT count(*) FROM work_jobs WHERE state <> 'done'").output == "0", "every job done, none lost or failed")
            #expect(captures > 16)
            // Exactly once: the LMDB ingest's records and answers (query rows and show).
            let query = s.cli(["query", "--archive", lmdb, "--json"]).out
            #expect(S3Archive.normalized(s.cli(["query", "--archive", remote, "--json"], env: pg).out) == S3Archive.normalized(query))
            for filter in [["--state", "tampered"], ["--sidecar", "mismatch"], ["--kind", "video"], ["--trust", "untrusted"]] {
                #expect(s.cli(["query", "--archive", remote, "--count"] + filter, env: pg).out
                        == s.cli(["query", "--archive", lmdb, "--count"] + filter).out, "\(filter)")
            }
            for line in query.split(separator: "\n") {
                let id = try #require(((try JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["recordId"] as? String)
                let (here, there) = (try Self.shown(s.cli(["show", "--archive", remote, "--json", id], env: pg).out),
                                     try Self.shown(s.cli(["show", "--archive", lmdb, "--json", id]).out))
                #expect(here == there, "record \(id): \(Self.difference(here, there))")
            }
            let paths = schema.psql("SELECT count(*), count(DISTINCT key) FROM work_jobs").output
            #expect(paths == "\(captures)|\(captures)", "one job per capture: \(paths)")
            let audit = s.cli(["audit", "--archive", remote], env: pg)
            #expect(audit.code == .success, "\(audit.out)\(audit.err)")
            let verified = s.cli(["log", "--archive", remote, "--verify"], env: pg)
            #expect(verified.code == .success, "\(verified.out)\(verified.err)")
            let retried = Int(schema.psql("SELECT count(*) FROM work_jobs WHERE attempts > 1").output) ?? 0
            #expect(retried > 0, "some job was taken again after its worker died")
        }

        /// `show --json` as two archives of one dump must agree on it: S3Archive's normalization,
        /// and for a record with several variants (a capture re-wrapped, both folders in the
        /// dump) the variants in ID order and without the stored report and the thumbnail —
        /// concurrent workers commit the variants in either order, and the record keeps the
        /// first one's report and thumbnail.
        /// The keys of `show --json`'s record (and the top level) whose values differ, with
        /// both values, so a failure says what differs.
        static func difference(_ a: String, _ b: String) -> String {
            func object(_ s: String) -> [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(s.utf8))) as? [String: Any]) ?? [:] }
            func text(_ v: Any?) -> String {
                guard let v else { return "absent" }
                let data = (try? JSONSerialization.data(withJSONObject: v, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
                return String(String(decoding: data, as: UTF8.self).prefix(600))
            }
            let (x, y) = (object(a), object(b))
            var lines: [String] = []
            for key in Set(x.keys).union(y.keys).sorted() where text(x[key]) != text(y[key]) {
                guard key == "record", let rx = x[key] as? [String: Any], let ry = y[key] as? [String: Any] else {
                    lines.append("\(key): S3+PostgreSQL \(text(x[key])) / LMDB \(text(y[key]))"); continue
                }
                for k in Set(rx.keys).union(ry.keys).sorted() where text(rx[k]) != text(ry[k]) {
                    lines.append("record.\(k): S3+PostgreSQL \(text(rx[k])) / LMDB \(text(ry[k]))")
                }
            }
            return lines.joined(separator: "\n")
        }

        static func shown(_ json: String) throws -> String {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
            S3Archive.strip(&object)
            if var record = object["record"] as? [String: Any], let variants = record["variants"] as? [[String: Any]], variants.count > 1 {
                record["variants"] = variants.sorted { ($0["blobId"] as? String ?? "") < ($1["blobId"] as? String ?? "") }
                record.removeValue(forKey: "reportId")
                record.removeValue(forKey: "derived")   // the thumbnail of the variant committed first
                object["record"] = record
                object.removeValue(forKey: "report")
            }
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
    }
}
