import Foundation
import Testing
@testable import Indexer

/// Issue 17 item 6: exports and reverify runs SIGKILLed at random moments. After the next run
/// (`gc`, or the next export), every custody event names a bag that exists (and verifies), no
/// staging or scratch folder is left, and the archive is consistent (`audit`, `log --verify`).
@Suite(.serialized, .enabled(if: binaryPath() != nil, "build exhibit-archive first"))
struct ExportKillTests {
    final class Fixture {
        let scratch = Scratch()
        let binary: String
        let archive: String
        let bags: String
        let tmp: String
        init() throws {
            binary = try #require(binaryPath())
            archive = scratch.path + "/archive"
            bags = scratch.path + "/bags"
            tmp = scratch.path + "/tmp"
            for d in [bags, tmp] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
            let dump = scratch.path + "/dump"
            try Hostile.dump(at: dump, stills: 3, videos: 1, seed: 9)
            #expect(try run(["init"]).status == 0)
            #expect(try run(["trust", "add", dump + "/trust/signer-root.pem"]).status == 0)
            #expect(try run(["trust", "add", "--tsa", dump + "/trust/tsa-root.pem"]).status == 0)
            #expect(try run(["ingest", "--no-media", dump]).status == 0)
        }

        func run(_ args: [String]) throws -> ChildRun {
            let r = try Hostile.run(binary, args + ["--archive", archive], environment: ["TMPDIR": tmp])
            #expect(!r.signalled, "\(args): \(r)")
            return r
        }

        func launch(_ args: [String]) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = args + ["--archive", archive]
            p.environment = ["PATH": "/usr/bin:/bin", "TMPDIR": tmp, "USER": "tester"].merging(Hostile.sanitizerOptions) { $1 }
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }

        /// Kills `args` at a random moment within 1.1 × `duration`; true when it was killed
        /// before it finished on its own.
        /// Launches `args` and SIGKILLs it after a random delay in `0…duration × spread`; true
        /// when it was still running then.
        func kill(_ args: [String], within duration: TimeInterval, spread: Double = 1.1) throws -> Bool {
            let p = try launch(args)
            var rng = SystemRandomNumberGenerator()
            Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * spread), using: &rng))
            let running = p.isRunning
            Foundation.kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            return running && p.terminationReason == .uncaughtSignal
        }

        func timed(_ args: [String]) throws -> TimeInterval {
            let t0 = Date()
            #expect(try run(args).status == 0, "\(args)")
            return Date().timeIntervalSince(t0)
        }

        /// External identifiers of the exports the custody log names.
        func loggedExports() throws -> Set<String> {
            var out = Set<String>()
            for line in try run(["log", "--json"]).out.split(separator: "\n") {
                guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let objects = o["objects"] as? [[String: Any]] else { continue }
                for ob in objects where ob["kind"] as? String == "export" { if let id = ob["id"] as? String { out.insert(id) } }
            }
            return out
        }

        /// External identifiers of the bags in `bags`, and the names of everything else there.
        func bagsOnDisk() throws -> (ids: Set<String>, bags: [String], other: [String]) {
            var ids = Set<String>(), bags: [String] = [], other: [String] = []
            for name in try FileManager.default.contentsOfDirectory(atPath: self.bags) {
                let info = self.bags + "/" + name + "/bag-info.txt"
                guard !name.hasPrefix("."), let text = try? String(contentsOfFile: info, encoding: .utf8) else { other.append(name); continue }
                bags.append(self.bags + "/" + name)
                for l in text.split(separator: "\n") where l.hasPrefix("External-Identifier: ") {
                    ids.insert(String(l.dropFirst("External-Identifier: ".count)))
                }
            }
            return (ids, bags, other)
        }

        func expectConsistent(_ label: String) throws {
            let audit = try run(["audit"])
            #expect(audit.status == 0 && audit.out.contains(" 0 damaged"), "\(label): \(audit)")
            let log = try run(["log", "--verify"])
            #expect(log.status == 0 && log.out.contains("chain intact"), "\(label): \(log)")
        }
    }

    @Test func killedExportsLeaveNoFalseEventAndNoFolder() throws {
        let f = try Fixture()
        let duration = try f.timed(["export", "--query", "--out", f.bags + "/probe"])
        var killed = 0, trials = 0
        // At least 20 trials, and on until ten kills have hit a running export (at most 60): how
        // many land depends on the machine's load between the reference run and each trial (7 of
        // 20 seen at load 9), not on the archive.
        while trials < Self.minimumTrials || (killed < Self.killsWanted && trials < Self.maximumTrials) {
            let trial = trials
            trials += 1
            let label = "trial \(trial)"
            if try f.kill(["export", "--query", "--out", f.bags + "/bag-\(trial)"], within: duration) { killed += 1 }
            // The next run: gc, or the next export (every other trial).
            if trial % 2 == 0 {
                #expect(try f.run(["gc"]).status == 0, "\(label)")
            } else {
                #expect(try f.run(["export", "--query", "--out", f.bags + "/next-\(trial)"]).status == 0, "\(label)")
            }
            let disk = try f.bagsOnDisk()
            #expect(disk.other.isEmpty, "\(label): left in bags/: \(disk.other)")
            #expect(try f.loggedExports() == disk.ids, "\(label): custody events and bags differ")
            try f.expectConsistent(label)
        }
        #expect(killed >= Self.killsWanted, "kills that hit a running export: \(killed) in \(trials) trials")
        // Killed after the commit, before the rename: a sealed staging folder whose event is
        // logged. Made by hand from the probe bag (a dead pid); the next export moves it into place.
        var dead: Int32 = 4_000_000
        while Foundation.kill(dead, 0) == 0 || errno != ESRCH { dead += 1 }
        #expect(rename(f.bags + "/probe", f.bags + "/.restored.export-\(dead).partial") == 0)
        let next = try f.run(["export", "--query", "--out", f.bags + "/after-restore"])
        #expect(next.status == 0 && next.err.contains("completed stale staging folder"), "\(next)")
        #expect(FileManager.default.fileExists(atPath: f.bags + "/restored/bag-info.txt"))
        #expect(try f.loggedExports() == f.bagsOnDisk().ids)
        for bag in try f.bagsOnDisk().bags {
            let v = try Hostile.run(f.binary, ["verify-export", bag])
            #expect(v.status == 0 && v.out.contains("bag valid"), "\(bag): \(v)")
        }
    }

    @Test func killedReverifyRunsLeaveNoFolder() throws {
        let f = try Fixture()
        let records = try f.run(["query", "--count"]).out
        // The shortest of three runs, and kills within 90 % of it: one slow reference run on a
        // loaded machine made most kills land after a faster run had finished (8 of 20 seen).
        let duration = try (0..<3).map { _ in try f.timed(["reverify"]) }.min()!
        var killed = 0, trials = 0
        while trials < Self.minimumTrials || (killed < Self.killsWanted && trials < Self.maximumTrials) {
            let trial = trials
            trials += 1
            if try f.kill(["reverify"], within: duration, spread: 0.9) { killed += 1 }
            #expect(try f.run(["gc"]).status == 0)
            let left = try FileManager.default.contentsOfDirectory(atPath: f.tmp).filter { $0.hasPrefix("exhibit-reverify-") }
            #expect(left.isEmpty, "trial \(trial): left \(left)")
            #expect(try f.run(["query", "--count"]).out == records, "trial \(trial)")
            try f.expectConsistent("trial \(trial)")
        }
        #expect(killed >= Self.killsWanted, "kills that hit a running reverify: \(killed) in \(trials) trials (4 of 20 seen at load 9)")
    }

    /// Each kill test runs at least `minimumTrials` trials, then more (up to `maximumTrials`)
    /// until `killsWanted` kills have hit a running process.
    static let minimumTrials = 20, killsWanted = 10, maximumTrials = 60
}
