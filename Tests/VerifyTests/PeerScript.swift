import Foundation
import Ground
import TestLiterals
import Testing

/// Runs a peer script of tests/peers with the venv's Python and hands back its stdout; the
/// script's failure (non-zero exit, with its stderr) is recorded as a test issue.
enum PeerScript {
    static func run(_ python: String, script name: String, _ arguments: [String]) throws -> Data {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("tests/peers/\(name)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [script.path] + arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(name): \(errText)")
        return data
    }
}
