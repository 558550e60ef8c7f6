import Foundation
import Ground
import Testing

/// The file-system shim on the real file system: no symlink followed, only regular files read,
/// a file that changes while read is caught.
@Suite struct FileShimTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "ground-shim-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: "file")
        try FileManager.default.createSymbolicLink(atPath: dir + "/dirlink", withDestinationPath: "sub")
    }

    @Test func symlinksAreNeverFollowed() throws {
        #expect(throws: FileOpenError.symlink(path: dir + "/link")) { try FileByteSource(opening: dir + "/link", limit: 100) }
        let root = try FileDescriptor.open(dir, .directory)
        #expect(try root.status(of: FileName("link")!).kind == .symlink)
        #expect(try root.linkTarget(of: FileName("link")!) == Array("file".utf8))
        #expect(throws: Errno.self) { try root.open(FileName("dirlink")!, .directory) }
        #expect(try root.entries().map(\.text) == ["dirlink", "file", "link", "sub"])
        #expect(try root.open(FileName("sub")!, .directory).entries().isEmpty)
    }

    @Test func onlyRegularFilesWithinTheLimitAreRead() throws {
        #expect(throws: FileOpenError.notRegularFile(path: "/dev/zero", kind: .characterDevice)) {
            try FileByteSource(opening: "/dev/zero", limit: 100)
        }
        #expect(throws: FileOpenError.notRegularFile(path: dir + "/sub", kind: .directory)) {
            try FileByteSource(opening: dir + "/sub", limit: 100)
        }
        #expect(throws: FileOpenError.tooLarge(path: dir + "/file", size: 5, limit: 4)) { try FileByteSource(opening: dir + "/file", limit: 4) }
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO with no writer must not block.
        #expect(throws: FileOpenError.notRegularFile(path: fifo, kind: .fifo)) { try FileByteSource(opening: fifo, limit: 100) }
        let f = try FileByteSource(opening: dir + "/file", limit: 5)
        #expect(try f.readAll() == Array("hello".utf8))
        try f.confirmUnchanged()
    }

    @Test func aFileThatGrowsOrLiesAboutItsSizeIsCaught() throws {
        let f = try FileByteSource(opening: dir + "/file", limit: 100)
        _ = try f.readAll()
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/file"))
        h.seekToEndOfFile()
        h.write(Data("!".utf8))
        try h.close()
        #expect(throws: FileChange.self) { try f.confirmUnchanged() }
        // /proc files say st_size 0 and hold bytes: never read as empty.
        let proc = try FileByteSource(opening: "/proc/self/status", limit: 100)
        #expect(proc.count == 0)
        do { try proc.confirmUnchanged(); Issue.record("a /proc file passed as empty") } catch {
            #expect(error.code == "io.sourceChanged")
        }
    }

    @Test func aRewriteOfTheSameSizeChangesTheIdentity() throws {
        let f = try FileByteSource(opening: dir + "/file", limit: 100)
        _ = try f.readAll()
        usleep(20_000)
        try Data("HELLO".utf8).write(to: URL(fileURLWithPath: dir + "/file"))  // replaced: new inode
        #expect(throws: FileChange.self) { try f.confirmUnchanged() }
        let g = try FileByteSource(opening: dir + "/file", limit: 100)
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/file"))  // in place: same inode
        h.write(Data("J".utf8))
        try h.close()
        #expect(throws: FileChange.self) { try g.confirmUnchanged() }
    }

    @Test func readerIsSequentialOverAnySource() throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 13) }
        var r = ByteReader(MemoryByteSource(bytes))
        var got: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 999)
        while true {
            let n = try buf.withUnsafeMutableBytes { try r.read(into: $0) }
            if n == 0 { break }
            got += buf.prefix(n)
        }
        #expect(got == bytes && r.remaining == 0 && r.position == 10_000)
        #expect(FileLimits.parse("1T") == 1 << 40 && FileLimits.parse("16M") == 16 << 20 && FileLimits.parse("12") == 12)
        #expect(FileLimits.parse("0") == nil && FileLimits.parse("-1") == nil && FileLimits.parse("1X") == nil && FileLimits.parse("") == nil)
        #expect(FileLimits.parse("9999999999T") == nil)
    }
}
