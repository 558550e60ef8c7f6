import Foundation
import Ground
import Testing

/// The descriptor walk (`DumpDirectory`) on the real file system: children opened relative to
/// their parent, symlinks reported with their targets and never entered, caps reported.
@Suite struct DumpDirectoryTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "ground-walk-\(getpid())-\(UUID().uuidString)"
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/a/b/c", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "-outside", withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir + "-outside/secret"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/a/one"))
        try Data("y".utf8).write(to: URL(fileURLWithPath: dir + "/a/b/c/two"))
        try fm.createSymbolicLink(atPath: dir + "/a/out", withDestinationPath: dir + "-outside")
        try fm.createSymbolicLink(atPath: dir + "/a/b/file-link", withDestinationPath: "../one")
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: dir)
        try? FileManager.default.removeItem(atPath: dir + "-outside")
    }

    @Test func regularFilesAreFoundAndSymlinksReportedNotEntered() throws {
        defer { cleanUp() }
        let root = try DumpDirectory.open(root: dir)
        let walk = root.regularFiles()
        #expect(walk.files.map(\.text) == ["a/b/c/two", "a/one"])
        #expect(Set(walk.problems) == [WalkProblem(path: dir + "/a/b/file-link", reason: .symlink(target: "../one")),
                                       WalkProblem(path: dir + "/a/out", reason: .symlink(target: dir + "-outside"))])
        #expect(walk.problems.allSatisfy { $0.code == StatusCode.walkSymlink })
        // A file below a symlinked folder cannot be opened through it, by any relative path.
        #expect(throws: FileOpenError.symlink(path: dir + "/a/out")) { try root.file(at: RelativePath(text: "a/out/secret")!) }
        #expect(try root.file(at: RelativePath(text: "a/b/c/two")!).readAll() == Array("y".utf8))
        // The root itself given as a symlink is refused.
        #expect(throws: WalkProblem(path: dir + "/a/out", reason: .symlink(target: dir + "-outside"))) {
            try DumpDirectory.open(root: dir + "/a/out")
        }
    }

    @Test func depthAndEntryCapsAreReported() throws {
        defer { cleanUp() }
        let root = try DumpDirectory.open(root: dir)
        let shallow = root.regularFiles(limits: WalkLimits(maxDepth: 2, maxEntries: 100))
        #expect(shallow.files.map(\.text) == ["a/one"])
        #expect(shallow.problems.contains(WalkProblem(path: dir + "/a/b", reason: .tooDeep(limit: 2))))
        let narrow = root.regularFiles(limits: WalkLimits(maxDepth: 16, maxEntries: 2))
        #expect(narrow.problems == [WalkProblem(path: dir + "/a", reason: .tooMany(limit: 2))])
        #expect(narrow.files.isEmpty)
    }

    @Test func namesThatAreNotUTF8OpenAsThemselves() throws {
        defer { cleanUp() }
        let name = try #require(FileName(bytes: [0x63, 0x61, 0x66, 0xe9]))
        let path = dir + "/" + name.text
        #expect(name.text == "caf\\xe9")
        // The shim's path calls read the text form back to the bytes.
        let fd = try FileDescriptor.create(path, exclusive: true)
        try [UInt8]("latin".utf8).withUnsafeBytes { try fd.write(all: $0) }
        let root = try DumpDirectory.open(root: dir)
        #expect(try root.list().entries.map(\.name).contains(name))
        #expect(try root.file(name).readAll() == Array("latin".utf8))
        #expect(try FileByteSource(opening: path, limit: 100).readAll() == Array("latin".utf8))
        // Round trip through JSON keeps the problem.
        let p = WalkProblem(path: path, reason: .unreadable(.permissionDenied))
        #expect(try JSONDecoder().decode(WalkProblem.self, from: JSONEncoder().encode(p)) == p)
    }
}
