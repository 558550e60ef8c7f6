import Foundation
import Testing

/// What a child process did: its exit status (or the signal that ended it) and its output.
struct ChildRun: CustomStringConvertible {
    let status: Int32
    let signalled: Bool
    let out: String
    let err: String
    var description: String { "\(signalled ? "signal" : "exit") \(status); stderr: \(err.prefix(400))" }
}

/// Helpers for the hostile-operator tests (issue 17): child processes of the real binary, as
/// root or as another user, and the mounts, attributes and device nodes they need. Every
/// test that uses them needs root (CI runs as root).
enum Hostile {
    static var isRoot: Bool { getuid() == 0 }

    /// The sanitizer settings of this process, handed to children (scripts/sanitize.sh runs
    /// the suite with leak detection off: Foundation's `Process.run` leaks a weak-reference
    /// side table on Linux, and the children are instrumented too).
    static var sanitizerOptions: [String: String] {
        ProcessInfo.processInfo.environment.filter { ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].contains($0.key) }
    }

    /// Runs `executable` with `args` (optionally as `uid`, with `setpriv`); output captured.
    static func run(_ executable: String, _ args: [String], environment: [String: String] = [:],
                    asUser uid: UInt32? = nil) throws -> ChildRun {
        let p = Process()
        var argv = args
        if let uid {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            argv = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", executable] + args
        } else {
            p.executableURL = URL(fileURLWithPath: executable)
        }
        p.arguments = argv
        p.environment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/tmp", "USER": "tester"]
            .merging(sanitizerOptions) { $1 }.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Read both pipes while the child runs (a full pipe would block it).
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.005) }
        return ChildRun(status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal,
                        out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a system tool (mount, chattr, mknod, …) and requires it to succeed.
    @discardableResult
    static func tool(_ path: String, _ args: [String]) throws -> ChildRun {
        let r = try run(path, args)
        guard r.status == 0, !r.signalled else { throw ToolFailed(command: ([path] + args).joined(separator: " "), run: r) }
        return r
    }

    struct ToolFailed: Error, CustomStringConvertible {
        let command: String
        let run: ChildRun
        var description: String { "\(command): \(run)" }
    }

    /// A tmpfs of `megabytes` at `path` (created), unmounted by the returned closure.
    static func mountTmpfs(_ path: String, megabytes: Int) throws -> () -> Void {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try tool("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0755", "tmpfs", path])
        return { _ = try? run("/bin/umount", ["-l", path]) }
    }

    /// A read-only bind mount of `source` at `path`, unmounted by the returned closure.
    static func bindReadOnly(_ source: String, at path: String) throws -> () -> Void {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try tool("/bin/mount", ["--bind", source, path])
        let undo = { _ = try? run("/bin/umount", ["-l", path]) }
        do { try tool("/bin/mount", ["-o", "remount,bind,ro", path]) } catch { undo(); throw error }
        return undo
    }

    /// The binary copied where any user can run it (another user cannot read a build folder
    /// under a private home).
    static func publicCopy(of binary: String, in directory: String) throws -> String {
        let dir = directory + "/bin"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let copy = dir + "/" + URL(fileURLWithPath: binary).lastPathComponent
        // Copied by cp, not in this process: a descriptor of ours open for writing the copy would
        // be inherited by any process another test spawns meanwhile, and exec of the copy would
        // then fail with ETXTBSY ("Text file busy") until that child execs.
        if !FileManager.default.fileExists(atPath: copy) { try tool("/bin/cp", [binary, copy]) }
        chmod(dir, 0o755)
        chmod(copy, 0o755)
        return copy
    }

    /// capture-synth next to exhibit-archive.
    static func synthPath() -> String? {
        guard let cli = binaryPath() else { return nil }
        let p = URL(fileURLWithPath: cli).deletingLastPathComponent().appendingPathComponent("capture-synth").path
        return FileManager.default.isExecutableFile(atPath: p) ? p : nil
    }

    /// A dump of intact captures (no fault) written by capture-synth: `stills` stills and
    /// `videos` one-second videos.
    static func dump(at path: String, stills: Int, videos: Int = 0, seed: Int = 3) throws {
        let synth = try #require(synthPath(), "capture-synth must be built (swift build)")
        let r = try run(synth, [path, "--stills", "\(stills)", "--videos", "\(videos)", "--video-seconds", "1", "--seed", "\(seed)"])
        try #require(r.status == 0 && !r.signalled, "capture-synth: \(r)")
    }
}
