import CAS
import Foundation
import Ground
@testable import Indexer
import TestLiterals

/// A fresh temporary directory, removed when released.
final class Scratch {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "indexer-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    var archive: String { path + "/archive" }

    func file(_ name: String, bytes: [UInt8]) -> String {
        let p = path + "/" + name
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }
}

/// Runs the CLI in-process with a capturing console.
struct Run {
    let code: ExitCode
    let out: String
    let err: String
}

func cli(_ args: [String], env: [String: String] = [:]) -> Run {
    let console = Console.capturing()
    let code = CommandRunner.run(args, environment: env, console: console)
    return Run(code: code, out: console.capturedOut, err: console.capturedErr)
}

/// The built `exhibit-archive` binary (next to the test bundle, or in .build/debug).
func binaryPath() -> String? {
    var candidates: [String] = []
    let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    candidates.append(argv0.appendingPathComponent("exhibit-archive").path)
    candidates.append(argv0.deletingLastPathComponent().appendingPathComponent("exhibit-archive").path)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(root.appendingPathComponent(".build/debug/exhibit-archive").path)
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}

func pseudoRandom(_ count: Int, seed: UInt64) -> [UInt8] {
    var x = seed | 1
    return (0..<count).map { _ in
        x ^= x << 13; x ^= x >> 7; x ^= x << 17
        return UInt8(truncatingIfNeeded: x)
    }
}
