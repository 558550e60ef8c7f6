import CLI
import Foundation
@testable import Indexer
import ProcessSupport
import Testing

/// What the S3-backed archive tests (`RGWTests.Archive*`, serialized with the other RGW tests:
/// one of them restarts radosgw) share: the RGW server, a faulted capture-synth dump, the CLI
/// run in-process with an explicit environment, and boto3.
struct S3Archive {
    let environment: [String: String]
    let cephDir: String
    let bucket: String
    let root: String

    init() throws {
        let server = try RGWServer.get()
        environment = server.environment
        cephDir = server.cephDir
        bucket = server.bucket
        root = NSTemporaryDirectory() + "archive-s3-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    /// A fresh key prefix under the test bucket.
    static func prefix() -> String { "tests/archive-\(UUID().uuidString.lowercased())" }

    /// `init --blobs s3://BUCKET/PREFIX` of a new archive at `path`.
    func initS3(_ path: String, prefix: String, extra: [String] = []) -> CLIRun {
        cli(["init", "--archive", path, "--blobs", "s3://\(bucket)/\(prefix)"] + extra)
    }

    /// Runs the CLI in-process with the server's environment (plus `env`).
    func cli(_ args: [String], env: [String: String] = [:]) -> CLIRun {
        let console = Console.capturing()
        let code = CommandRunner.run(args, environment: environment.merging(env) { $1 }, console: console)
        return CLIRun(code: code, out: console.capturedOut, err: console.capturedErr)
    }

    /// boto3 (`tests/peers/s3_peer.py`) with the server's environment.
    func peer(_ args: [String]) -> Run.Result {
        let python = CephTestServer.repository.appendingPathComponent(".venv/bin/python").path
        return Run.capture([python, CephTestServer.repository.appendingPathComponent("tests/peers/s3_peer.py").path] + args,
                           environment: environment)
    }

    /// The object key of blob `hex` under `prefix` (restic's layout).
    static func key(_ hex: String, prefix: String) -> String { "\(prefix)/blobs/\(hex.prefix(2))/\(hex)" }

    static let faults = ["media-flip", "signature-flip", "unsigned", "truncated", "garbage-manifest", "sidecar-changed",
                         "sidecar-missing", "sink-failed", "ring-frame-removed", "symlink-escape", "rewrapped", "video-media-flip"]

    /// A faulted capture-synth dump at `root/dump` (`stills` stills, `videos` videos of `seconds`).
    func dump(stills: Int = 3, videos: Int = 1, seconds: Int = 2, name: String = "dump", seed: Int = 7) throws -> String {
        let synth = try #require(Self.synthPath(), "capture-synth must be built (swift build)")
        let path = root + "/" + name
        let run = Run.capture([synth, path, "--stills", "\(stills)", "--videos", "\(videos)", "--video-seconds", "\(seconds)",
                               "--seed", "\(seed)", "--jobs", "2", "--faults", Self.faults.joined(separator: ",")])
        #expect(run.status == 0, "\(run.stderr)")
        return path
    }

    /// `ingest` flags trusting the dump's roots.
    static func trust(_ dump: String) -> [String] {
        ["--trust", dump + "/trust/signer-root.pem", "--tsa-trust", dump + "/trust/tsa-root.pem"]
    }

    /// The built `exhibit-archive` (next to the test bundle, or in .build/debug).
    static func binaryPath() -> String? {
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [argv0.appendingPathComponent("exhibit-archive").path,
                          argv0.deletingLastPathComponent().appendingPathComponent("exhibit-archive").path,
                          CephTestServer.repository.appendingPathComponent(".build/debug/exhibit-archive").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func synthPath() -> String? {
        guard let cli = binaryPath() else { return nil }
        let p = URL(fileURLWithPath: cli).deletingLastPathComponent().appendingPathComponent("capture-synth").path
        return FileManager.default.isExecutableFile(atPath: p) ? p : nil
    }

    /// Every JSON line of `text`, with the fields that depend on the run (ingest time) or on
    /// where blobs live removed, for comparing two archives' answers.
    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n").map { line in
            guard var object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return String(line) }
            strip(&object)
            return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
        }
    }

    static func strip(_ object: inout [String: Any]) {
        for key in ["ingestTime", "firstIngested", "blobLocation", "indexLocation", "custody", "seconds", "time", "mbPerSecond"] { object.removeValue(forKey: key) }
        for (k, v) in object {
            if var inner = v as? [String: Any] { strip(&inner); object[k] = inner }
            if let list = v as? [Any] {
                object[k] = list.map { item -> Any in
                    guard var inner = item as? [String: Any] else { return item }
                    strip(&inner)
                    return inner
                }
            }
        }
    }

    /// `sha256sum` of every file under `dir`, by relative path.
    static func tree(_ dir: String) throws -> [String: String] {
        var out: [String: String] = [:]
        let e = try #require(FileManager.default.enumerator(atPath: dir))
        while let rel = e.nextObject() as? String {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir + "/" + rel, isDirectory: &isDir), !isDir.boolValue else { continue }
            out[rel] = Run.capture(["sha256sum", dir + "/" + rel]).stdout.split(separator: " ").first.map(String.init)
        }
        return out
    }
}

struct CLIRun {
    let code: ExitCode
    let out: String
    let err: String
}
