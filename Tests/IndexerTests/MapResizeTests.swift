import CAS
import Foundation
import Ground
import Synchronization
import TestLiterals
import Testing

/// Another process grows the map (`MDB_MAP_RESIZED` here): this process adopts the new size
/// with none of its transactions open, while several of its threads keep reading.
@Suite struct MapResizeTests {
    @Test func readersAdoptAMapGrownByAnotherProcess() throws {
        let binary = try #require(binaryPath(), "exhibit-archive binary not built")
        let s = Scratch()
        let small = ["EXHIBIT_LMDB_MAPSIZE": "1048576"]
        #expect(cli(["init", "--archive", s.archive], env: small).code == .success)
        var options = ContentStore.Options()
        options.environment.mapSize = 1 << 20
        let store = try ContentStore.open(at: s.archive, options: options)
        let local = pseudoRandom(100_000, seed: 7)
        let localID = try store.put(contentsOf: s.file("local", bytes: local)).id

        // Four threads read the local blob in a loop while child processes each store 6 MiB,
        // growing the map far past this process's 1 MiB mapping.
        let stop = Mutex(false), failures = Mutex([String]())
        let readers = (0..<4).map { _ in
            Thread {
                while !stop.withLock({ $0 }) {
                    do {
                        var got = [UInt8]()
                        try store.read(localID) { got.append(contentsOf: $0) }
                        if got != local { failures.withLock { $0.append("local blob read back wrong") } }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        readers.forEach { $0.start() }
        var remote: [(ContentID, [UInt8])] = []
        for i in 0..<3 {
            let bytes = pseudoRandom(6 << 20, seed: UInt64(100 + i))
            let path = s.file("remote\(i)", bytes: bytes)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = ["put", path, "--archive", s.archive]
            p.environment = small
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            remote.append((ContentID(of: bytes), bytes))
        }
        stop.withLock { $0 = true }
        while readers.contains(where: { !$0.isFinished }) { usleep(1000) }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")

        // The blobs the other process wrote, past this process's old mapping, read back whole.
        for (id, bytes) in remote {
            var got = [UInt8]()
            try store.read(id) { got.append(contentsOf: $0) }
            #expect(got == bytes)
        }
        #expect(store.environment.info().mapSize > 1 << 20)
    }
}
