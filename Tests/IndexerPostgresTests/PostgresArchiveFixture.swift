import Archive
import ArchivePostgres
import CAS
import CLI
import Foundation
import Ground
@testable import Indexer
import Ingest
import Postgres
import PostgresTestSupport
import Query
import Testing

/// An archive whose index is a schema of its own on the test server (`init --index URL
/// --index-schema t_…`), a faulted capture-synth dump, and the CLI run in-process or as
/// processes of the built `exhibit-archive`, all with the server's environment (PG* variables,
/// PGPASSFILE: no password anywhere on a command line).
final class PostgresArchiveFixture {
    let schema: TestSchema
    let root: String

    /// On the shared test server, or on `server` (a cluster of the test's own).
    init(server: TestServer? = nil) throws {
        schema = try TestSchema(on: server)
        root = NSTemporaryDirectory() + "indexer-pg-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var environment: [String: String] { schema.server.environment }
    var url: String { schema.server.url }
    var archive: String { root + "/archive" }

    /// Runs the CLI in-process.
    func cli(_ args: [String], env: [String: String] = [:]) -> CLIRun {
        let console = Console.capturing()
        let code = CommandRunner.run(args, environment: environment.merging(env) { $1 }, console: console)
        return CLIRun(code: code, out: console.capturedOut, err: console.capturedErr)
    }

    /// `init --index URL --index-schema <this test's schema>` of `path` (default: `archive`).
    func initArchive(_ path: String? = nil) -> CLIRun {
        cli(["init", "--archive", path ?? archive, "--index", url, "--index-schema", schema.name])
    }

    static let faults = ["media-flip", "signature-flip", "unsigned", "truncated", "sidecar-changed", "sidecar-missing",
                         "sink-failed", "ring-frame-removed", "symlink-escape", "rewrapped", "video-media-flip"]

    /// A faulted capture-synth dump at `root/name`.
    func dump(stills: Int, videos: Int = 1, name: String = "dump", seed: Int = 11, faults: [String] = PostgresArchiveFixture.faults) throws -> String {
        let synth = try #require(Run.builtExecutable("capture-synth"), "capture-synth must be built (swift build)")
        let path = root + "/" + name
        let run = Run.capture([synth, path, "--stills", "\(stills)", "--videos", "\(videos)", "--video-seconds", "1",
                               "--seed", "\(seed)", "--jobs", "2"] + (faults.isEmpty ? [] : ["--faults", faults.joined(separator: ",")]))
        try #require(run.status == 0, "capture-synth: \(run.stderr)")
        return path
    }

    /// A process of the built `exhibit-archive` with the server's environment, output to files.
    func start(_ args: [String], log: String) throws -> Process {
        let exe = try #require(Run.builtExecutable("exhibit-archive"), "exhibit-archive must be built (swift build)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = environment
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        return p
    }

    /// The archive's stores in PostgreSQL, on a connection of the test's schema.
    func stores() throws -> (records: PostgresRecordStore, custody: PostgresCustodyStore, connection: Connection) {
        let c = try schema.connect()
        return (PostgresRecordStore(connection: c), PostgresCustodyStore(connection: c), c)
    }

    /// The queue's counts by state.
    func queue() throws -> PostgresWorkQueue.Summary {
        try schema.connect().read { tx in try PostgresWorkQueue.summary(in: tx) }
    }
}

struct CLIRun {
    let code: ExitCode
    let out: String
    let err: String
}

/// A record as both stores must hold it whatever order the captures committed in: every
/// field but the times of ingest and the report (whose copy is adopted depends on which
/// variant came first), variants and files as sets.
func comparable(_ r: IndexedRecord) -> String {
    let variants = r.variants.map { "\($0.blobId.hex):\($0.size):\($0.sourcePaths.sorted())" }.sorted()
    let files = r.files.map { "\($0.role):\($0.relativePath):\($0.blobId.hex)" }.sorted()
    let sidecars = r.sidecars.map { "\($0.key.rawValue)=\($0.value.rawValue)" }.sorted()
    let sidecarVariants = (r.sidecarVariants ?? []).map { "\($0.sink.rawValue)=\($0.state.rawValue)" }.sorted()
    return [r.recordId.hex, r.kind.rawValue, r.integrity.rawValue, r.trust?.rawValue ?? "-", r.keyFingerprint?.hex ?? "-",
            r.captureTime ?? "-", r.tsaTime ?? "-", r.failureCodes.sorted().joined(separator: ","), sidecars.joined(separator: ","),
            variants.joined(separator: ";"), files.joined(separator: ";"), sidecarVariants.joined(separator: ","),
            "\((r.derived ?? []).count) derived", r.analyses?.state.rawValue ?? "-"].joined(separator: " | ")
}
