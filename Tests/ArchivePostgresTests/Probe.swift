import Foundation
import PostgresTestSupport
import Testing

/// The PostgresProbe helper (Tests/PostgresProbe) run as processes of their own against one
/// migrated test schema: started together through a `go` file, stdout in a file the test reads
/// while they run, SIGKILLed when a test says so.
final class Probe: @unchecked Sendable {
    let process: Process
    let name: String
    let output: String

    /// The built helper: next to the test bundle, or in .build/debug.
    static func binary() -> String? {
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return [argv0.appendingPathComponent("PostgresProbe").path,
                argv0.deletingLastPathComponent().appendingPathComponent("PostgresProbe").path,
                root.appendingPathComponent(".build/debug/PostgresProbe").path]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `PostgresProbe COMMAND DIR NAME REST…` on `db`'s schema; it waits for DIR/go.
    init(_ command: String, dir: String, name: String, _ rest: [String], on db: MigratedSchema) throws {
        let binary = try #require(Self.binary(), "build the PostgresProbe helper first (swift build)")
        self.name = name
        output = dir + "/out-" + name + "-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [command, dir, name] + rest
        var env = ProcessInfo.processInfo.environment
        env["PROBE_URL"] = db.test.server.connectionURL
        env["PROBE_SCHEMA"] = db.test.name
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        _ = FileManager.default.createFile(atPath: output + ".err", contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output + ".err"))
        try process.run()
    }

    /// What it printed so far, a line each.
    var lines: [String] {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    var stderr: String { (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? "" }

    /// Waits until DIR/ready-NAME exists (the probe connected), at most `seconds`.
    static func waitReady(_ probes: [Probe], dir: String, seconds: Double = 60) -> Bool {
        poll(seconds) { probes.allSatisfy { FileManager.default.fileExists(atPath: dir + "/ready-" + $0.name) || !$0.process.isRunning } }
    }

    static func go(_ dir: String) { _ = FileManager.default.createFile(atPath: dir + "/go", contents: nil) }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the exit; its status (`nil` when it did not end within `seconds`).
    func wait(seconds: Double = 120) -> Int32? {
        guard Self.poll(seconds, { !self.process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Polls `condition` every 10 ms for at most `seconds`; whether it became true.
    static func poll(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// A fresh directory for one test's probes.
    static func directory() throws -> String {
        let dir = NSTemporaryDirectory() + "pg-probe-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
