@testable import C2PA
import Foundation
import Ground
import Synchronization
import TestLiterals

/// Real C2PA files made once per test run by c2pa-python (the reference c2pa-rs) in a temp dir.
enum Fixtures {
    /// `.venv/bin/python` at the package root, else /tmp/venvtest/bin/python; nil when neither exists.
    static let python: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for p in [root.appendingPathComponent(".venv/bin/python").path, "/tmp/venvtest/bin/python"]
        where FileManager.default.isExecutableFile(atPath: p) {
            return p
        }
        return nil
    }()

    static let skipMessage = "no Python venv with c2pa-python (.venv/bin/python or /tmp/venvtest/bin/python): skipped"

    private static let made = Mutex<URL?>(nil)

    static var scriptPath: URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-tests-\(getpid())-make_fixtures.py")
        if !FileManager.default.fileExists(atPath: u.path) {
            try? fixtureScript.write(to: u, atomically: true, encoding: .utf8)
        }
        return u
    }

    /// The fixture directory (made on first use), nil when the venv is missing.
    static func directory() throws -> URL? {
        guard python != nil else { return nil }
        return try made.withLock { (dir: inout URL?) throws -> URL? in
            if let dir { return dir }
            let d = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-tests-\(getpid())")
            _ = try run(["\(scriptPath.path)", d.path])
            dir = d
            return d
        }
    }

    /// Runs the peer script with `args`, feeding `stdin`; returns stdout. Throws on non-zero exit.
    @discardableResult
    static func run(_ args: [String], stdin: [UInt8] = []) throws -> [UInt8] {
        guard let python else { throw FixtureError(message: skipMessage) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = args[0].hasSuffix(".py") ? args : [scriptPath.path] + args
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = errPipe
        try p.run()
        inPipe.fileHandleForWriting.write(Data(stdin))
        try inPipe.fileHandleForWriting.close()
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        let err = errPipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw FixtureError(message: "python \(args.joined(separator: " ")) failed: \(String(decoding: err, as: UTF8.self))")
        }
        return [UInt8](out)
    }

    static func bytes(_ name: String) throws -> [UInt8]? {
        guard let d = try directory() else { return nil }
        return [UInt8](try Data(contentsOf: d.appendingPathComponent(name)))
    }

    static func json(_ name: String) throws -> [String: Any]? {
        guard let b = try bytes(name) else { return nil }
        return try JSONSerialization.jsonObject(with: Data(b)) as? [String: Any]
    }

    /// c2pa.Reader's verdict on a file: detailed JSON with `validation_state`.
    static func read(_ path: String, mime: String) throws -> [String: Any] {
        let out = try run(["read", path, mime])
        return try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any] ?? [:]
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Base64 (standard) decoding for the verdict JSON.
func base64(_ s: String) -> [UInt8]? { Data(base64Encoded: s).map { [UInt8]($0) } }

/// DER certificates from a PEM file's text.
func pemCertificates(_ pem: String) -> [[UInt8]] {
    pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { part in
        let body = part.components(separatedBy: "-----END CERTIFICATE-----")[0]
            .components(separatedBy: .whitespacesAndNewlines).joined()
        return base64(body)
    }
}
