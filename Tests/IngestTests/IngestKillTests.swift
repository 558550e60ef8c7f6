import ArchiveLMDB
import CAS
import Foundation
import Ground
import Ingest
import Query
import TestLiterals
import Testing

/// SIGKILLs `exhibit-archive ingest` at random moments (20 trials), then ingests again: the
/// archive audits clean, the custody chain verifies, and every capture is there exactly once.
@Suite struct IngestKillTests {
    /// The built `exhibit-archive` binary (next to the test bundle, or in .build/debug).
    static func binary() -> String? {
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return [argv0.appendingPathComponent("exhibit-archive").path,
                argv0.deletingLastPathComponent().appendingPathComponent("exhibit-archive").path,
                root.appendingPathComponent(".build/debug/exhibit-archive").path]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the CLI; returns the process (already started) or its exit status.
    static func launch(_ binary: String, _ args: [String]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        // A 1 MiB initial map: the map grows (and write bodies re-run) during the trials.
        p.environment = ["PATH": "/usr/bin:/bin", "EXHIBIT_LMDB_MAPSIZE": "1048576", "USER": "kill-test"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    static func run(_ binary: String, _ args: [String]) throws -> Int32 {
        let p = try launch(binary, args)
        p.waitUntilExit()
        return p.terminationStatus
    }

    @Test func killedIngestResumesToExactlyOnce() throws {
        let binary = try #require(Self.binary(), "build the exhibit-archive product first (swift build)")
        let dump = try DumpFixture.small.get()
        let trust = ["--trust", dump.root + "/" + dump.expected.signerRoot, "--tsa-trust", dump.root + "/" + dump.expected.tsaRoot]
        let base = DumpFixture.scratch("kill")
        defer { try? FileManager.default.removeItem(atPath: base) }

        // An uninterrupted ingest: its duration and its records are the reference.
        let probe = base + "/probe"
        #expect(try Self.run(binary, ["init", "--archive", probe]) == 0)
        let t0 = Date()
        #expect(try Self.run(binary, ["ingest", "--archive", probe, dump.root] + trust) == 1)  // faults: exit 1
        let duration = Date().timeIntervalSince(t0)
        let reference = try Self.snapshot(probe)
        #expect(reference.records.count == Set(dump.expected.captures.map { $0.claimSHA256 ?? $0.id }).count)

        var rng = SystemRandomNumberGenerator()
        var interrupted = 0, partial = 0
        for trial in 0..<20 {
            let archive = base + "/a\(trial)"
            #expect(try Self.run(binary, ["init", "--archive", archive]) == 0)
            let p = try Self.launch(binary, ["ingest", "--archive", archive, "--jobs", "2", dump.root] + trust)
            Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * 0.8), using: &rng))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            if p.terminationReason == .uncaughtSignal {
                interrupted += 1
                // Killed with some captures committed and others not: the resume path is exercised.
                if FileManager.default.fileExists(atPath: archive + "/data.mdb") {
                    let n = try Self.snapshot(archive).records.count
                    if n > 0 && n < reference.records.count { partial += 1 }
                }
            }
            // Resume, then check.
            #expect(try Self.run(binary, ["ingest", "--archive", archive, dump.root] + trust) == 1, "trial \(trial)")
            #expect(try Self.run(binary, ["audit", "--archive", archive]) == 0, "trial \(trial)")
            #expect(try Self.run(binary, ["log", "--verify", "--archive", archive]) == 0, "trial \(trial)")
            let got = try Self.snapshot(archive)
            #expect(got.records == reference.records, "trial \(trial)")
            #expect(got.duplicatePaths.isEmpty, "trial \(trial): \(got.duplicatePaths)")
            #expect(got.newRecordEvents == got.records.count, "trial \(trial): one 'new record' ingestion event per record")
            #expect(got.sourcePaths == reference.sourcePaths, "trial \(trial)")
        }
        #expect(interrupted >= 5, "trials must kill a running ingest")
        #expect(partial >= 1, "some kill must land between two commits")
    }

    struct Snapshot: Equatable {
        /// recordId → (integrity, variant blob IDs sorted).
        var records: [String: [String]] = [:]
        var sourcePaths: Set<String> = []
        var duplicatePaths: [String] = []
        var newRecordEvents = 0
    }

    static func snapshot(_ path: String) throws -> Snapshot {
        let archive = try LMDBArchive(store: ContentStore.open(at: path))
        var s = Snapshot()
        let ids = try archive.index.query(RecordFilter()).matches
        for r in try archive.index.records(ids) {
            s.records[r.recordId.hex] = [r.integrity.rawValue] + r.variants.map(\.blobId.hex).sorted()
            for v in r.variants {
                for p in v.sourcePaths where !s.sourcePaths.insert(p).inserted { s.duplicatePaths.append(p) }
            }
        }
        s.newRecordEvents = try archive.custody.allEvents().filter {
            $0.eventType == .ingestion && $0.outcomeDetail.hasPrefix("new record")
        }.count
        return s
    }
}
