import Foundation

/// Child processes for the server tests: the service scripts and the peers (`psql`, openssl,
/// boto3). One runner for the PostgreSQL and the S3 test targets.
public enum Run {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        /// stdout without its last newline.
        public var output: String { stdout.hasSuffix("\n") ? String(stdout.dropLast()) : stdout }
    }

    /// Runs `argv` (looked up on PATH) with `environment` (default: ours), stdout and stderr in
    /// temporary files (no pipe that a server the child starts could hold open), and waits.
    public static func capture(_ argv: [String], environment: [String: String]? = nil) -> Result {
        let base = NSTemporaryDirectory() + "test-run-" + UUID().uuidString
        let outPath = base + ".out", errPath = base + ".err"
        defer { unlink(outPath); unlink(errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let cArgs = (["/usr/bin/env"] + argv).map { strdup($0) } + [nil]
        let cEnv = env.map { strdup($0) } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/usr/bin/env", &actions, nil, cArgs, cEnv)
        guard rc == 0 else { return Result(status: -1, stdout: "", stderr: "posix_spawn: \(rc)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return Result(status: exit, stdout: read(outPath), stderr: read(errPath))
    }
}

extension Run {
    /// A helper executable of this package built beside the tests (PostgresProbe,
    /// BlobStoreProbe, exhibit-archive): next to the test bundle, one directory up, or in the
    /// checkout's .build/debug; nil when it was not built.
    public static func builtExecutable(_ name: String) -> String? {
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return [argv0.appendingPathComponent(name).path,
                argv0.deletingLastPathComponent().appendingPathComponent(name).path,
                root.appendingPathComponent(".build/debug/" + name).path]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
