import CAS
import Foundation
import Testing
@testable import Indexer

/// Issue 17 item 3: `get -o` writes only to a regular file or a new path (temporary file +
/// rename), writes a FIFO or a character device in place (never renamed over), and refuses a
/// directory, a block device or a symbolic link (`cas.output.refused`, exit 1). Device nodes
/// are made with mknod inside the test's own folder; the real /dev is never touched.
@Suite(.serialized, .enabled(if: Hostile.isRoot, "needs root: mknod"))
struct GetOutputTests {
    let s = Scratch()
    let bytes = pseudoRandom(2_500_000, seed: 23)
    let id: String

    init() throws {
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        let put = cli(["put", "--archive", s.archive, s.file("blob.bin", bytes: bytes)])
        id = String(put.out.prefix(64))
        #expect(id.count == 64)
    }

    func get(_ output: String) -> Run { cli(["get", id, "-o", output, "--archive", s.archive]) }

    func mode(_ path: String) -> (type: mode_t, rdev: UInt)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_mode & S_IFMT, UInt(st.st_rdev))
    }

    /// The folder holds no temporary `.….partial` file.
    func expectNoPartial(_ dir: String) throws {
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".partial") }
        #expect(left.isEmpty, "left: \(left)")
    }

    @Test func regularFileAndNewPathAreReplacedWhole() throws {
        let fresh = s.path + "/new.bin"
        #expect(get(fresh).code == .success)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: fresh))) == bytes)
        let existing = s.file("old.bin", bytes: [1, 2, 3])
        #expect(get(existing).code == .success)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: existing))) == bytes)
        // A stale temporary name planted as a link to another file is not written through.
        let victim = s.file("victim.txt", bytes: Array("keep".utf8))
        let planted = s.path + "/.planted.bin.\(getpid()).partial"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        #expect(get(s.path + "/planted.bin").code == .success)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: victim)), as: UTF8.self) == "keep")
        try expectNoPartial(s.path)
    }

    @Test func characterDeviceIsWrittenInPlaceNotReplaced() throws {
        let node = s.path + "/null"
        try Hostile.tool("/usr/bin/mknod", [node, "c", "1", "3"])
        let before = try #require(mode(node))
        let r = get(node)
        #expect(r.code == .success, "\(r.err)")
        let after = try #require(mode(node))
        #expect(after.type == S_IFCHR && after.rdev == before.rdev, "the device node must stay")
        try expectNoPartial(s.path)
    }

    @Test func fifoIsWrittenInPlace() throws {
        let fifo = s.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread {
            if let h = FileHandle(forReadingAtPath: fifo) { received = h.readDataToEndOfFile() }
        }
        reader.start()
        let r = get(fifo)
        #expect(r.code == .success, "\(r.err)")
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(Array(received) == bytes)
        #expect(mode(fifo)?.type == S_IFIFO)
        try expectNoPartial(s.path)
    }

    @Test func directoryBlockDeviceAndLinkAreRefused() throws {
        let dir = s.path + "/folder"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let block = s.path + "/loop"
        try Hostile.tool("/usr/bin/mknod", [block, "b", "7", "200"])
        let target = s.file("target.txt", bytes: Array("unchanged".utf8))
        let link = s.path + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for (path, type) in [(dir, S_IFDIR), (block, S_IFBLK), (link, S_IFLNK)] {
            let r = get(path)
            #expect(r.code == .failure && r.err.contains("Error: cas.output.refused:"), "\(path): \(r.err)")
            #expect(mode(path)?.type == type, "\(path) must stay as it was")
        }
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: target)), as: UTF8.self) == "unchanged")
        try expectNoPartial(s.path)
    }
}
