@testable import Crypto
import Foundation
import Ground
import TestLiterals

/// Runs the `openssl` command-line tool as an independent peer for interop tests.
enum OpenSSLCLI {
    struct Failure: Error, CustomStringConvertible {
        let args: [String]
        let status: Int32
        let stderr: String
        var description: String { "openssl \(args.joined(separator: " ")) exited \(status): \(stderr)" }
    }

    /// Runs `openssl args…` in `directory`, feeding `input`; returns stdout. Throws on non-zero exit.
    @discardableResult
    static func run(_ args: [String], input: [UInt8] = [], in directory: URL? = nil) throws -> [UInt8] {
        let (status, out, err) = try runStatus(args, input: input, in: directory)
        guard status == 0 else { throw Failure(args: args, status: status, stderr: err) }
        return out
    }

    static func runStatus(_ args: [String], input: [UInt8] = [], in directory: URL? = nil) throws -> (Int32, [UInt8], String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, Array(out), String(decoding: err, as: UTF8.self))
    }
}

/// A fresh temporary directory, removed when the value is released.
final class TempDir {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("crypto-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: url.appendingPathComponent(name)) }
    func write(_ name: String, _ text: String) throws { try write(name, Array(text.utf8)) }
    func read(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url.appendingPathComponent(name))) }
}

/// A small PKI made with `CertificateBuilder`: root → intermediate → signer leaf, plus a TSA.
struct TestPKI {
    let rootKey: PrivateKey, root: Certificate
    let intermediateKey: PrivateKey, intermediate: Certificate
    let leafKey: PrivateKey, leaf: Certificate
    let tsaKey: PrivateKey, tsa: Certificate

    static let start = Date(timeIntervalSince1970: 1_700_000_000)   // 2023-11-14
    static let end = Date(timeIntervalSince1970: 2_000_000_000)     // 2033-05-18

    init(leafKind: KeyKind = .p256) throws {
        rootKey = try PrivateKey.generate(.p256)
        root = try CertificateBuilder(commonName: "Exhibit Test Root", organization: "Exhibit", country: "US", serial: 1,
                                      notBefore: TestPKI.start, notAfter: TestPKI.end,
                                      extensions: CertificateBuilder.rootCAExtensions).selfSigned(key: rootKey)
        intermediateKey = try PrivateKey.generate(.p256)
        intermediate = try CertificateBuilder(commonName: "Exhibit Test Intermediate", organization: "Exhibit", country: "US", serial: 2,
                                              notBefore: TestPKI.start, notAfter: TestPKI.end,
                                              extensions: CertificateBuilder.intermediateCAExtensions)
            .issued(publicKey: intermediateKey.publicKey, issuer: root, issuerKey: rootKey)
        leafKey = try PrivateKey.generate(leafKind)
        leaf = try CertificateBuilder(commonName: "Device 1", organization: "Exhibit Devices", country: "DE", serial: 0x1234_5678_9abc,
                                      notBefore: TestPKI.start, notAfter: Date(timeIntervalSince1970: 1_900_000_000),
                                      extensions: CertificateBuilder.c2paSignerExtensions)
            .issued(publicKey: leafKey.publicKey, issuer: intermediate, issuerKey: intermediateKey)
        tsaKey = try PrivateKey.generate(.p256)
        tsa = try CertificateBuilder(commonName: "Exhibit Test TSA", organization: "Exhibit", country: "US", serial: 3,
                                     notBefore: TestPKI.start, notAfter: TestPKI.end,
                                     extensions: CertificateBuilder.timeStampingExtensions)
            .issued(publicKey: tsaKey.publicKey, issuer: root, issuerKey: rootKey)
    }
}
