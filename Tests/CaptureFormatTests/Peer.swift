import Foundation
import Ground
import TestLiterals
import Testing

/// Runs the Python peer (cbor2 / hashlib / hmac) with one JSON request and returns its answer.
enum Peer {
    static let python: String? = {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for p in [root.appendingPathComponent(".venv/bin/python").path, "/tmp/venvtest/bin/python"]
        where FileManager.default.isExecutableFile(atPath: p) {
            return p
        }
        return nil
    }()

    /// The peer script, written to a temporary file once per process.
    static let script: String = {
        let path = NSTemporaryDirectory() + "capture_peer_\(ProcessInfo.processInfo.processIdentifier).py"
        _ = FileManager.default.createFile(atPath: path, contents: Data(PeerSource.text.utf8))
        return path
    }()

    static func run(_ request: [String: Any]) throws -> [String: Any] {
        let py = try #require(python, "a Python with cbor2 is needed for the peer cross-checks")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: py)
        p.arguments = [script]
        let input = Pipe(), output = Pipe(), err = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = err
        try p.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "peer failed: \(errText)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func strings(_ answer: [String: Any], _ key: String) throws -> [String] {
        try #require(answer[key] as? [String])
    }
}
