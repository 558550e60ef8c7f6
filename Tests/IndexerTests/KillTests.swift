import CAS
import Foundation
import Ground
@testable import Indexer
import TestLiterals
import Testing

/// SIGKILLs `exhibit-archive put` of a large file at random moments; after each kill the
/// archive opens, audits clean, and holds the blob whole or not at all.
@Suite struct KillTests {
    @Test func killedPutLeavesArchiveConsistent() throws {
        let binary = try #require(binaryPath(), "build the exhibit-archive product first (swift build)")
        let s = Scratch()
        let size = 48 << 20
        let file = s.path + "/big.bin"
        let h = try #require(FileHandle(forWritingAtPath: { _ = FileManager.default.createFile(atPath: file, contents: nil); return file }()))
        for i in 0..<(size >> 20) { h.write(Data(pseudoRandom(1 << 20, seed: UInt64(i) + 100))) }
        try h.close()
        let env = ["EXHIBIT_CAS_BATCH_MB": "4", "PATH": "/usr/bin:/bin"]

        func launch(_ archive: String, _ args: [String]) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = args + ["--archive", archive]
            p.environment = env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        // One uninterrupted put to learn how long a put takes here.
        let probe = s.path + "/probe"
        #expect(cli(["init", "--archive", probe]).code == .success)
        let t0 = Date()
        let full = try launch(probe, ["put", file])
        full.waitUntilExit()
        let duration = Date().timeIntervalSince(t0)
        #expect(full.terminationStatus == 0)
        let id = try #require(try ContentStore.open(at: probe).blobIDs().first)

        var whole = 0, absent = 0
        var rng = SystemRandomNumberGenerator()
        for trial in 0..<20 {
            let archive = s.path + "/a\(trial)"
            #expect(cli(["init", "--archive", archive]).code == .success)
            let p = try launch(archive, ["put", file])
            Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * 1.1), using: &rng))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let store = try ContentStore.open(at: archive)
            let report = try store.audit()
            #expect(report.isClean, "trial \(trial)")
            if try store.contains(id) {
                whole += 1
                #expect(try store.record(of: id)?.size == UInt64(size))
            } else {
                absent += 1
                #expect(report.blobsInStore == 0)
                // The killed put's chunks are invisible; gc removes them.
                _ = try store.collectGarbage()
                #expect(try store.stats().chunks == 0, "trial \(trial)")
            }
            #expect(cli(["audit", "--archive", archive]).code == .success)
        }
        #expect(whole + absent == 20)
    }
}
