import Foundation
import Ground
import Testing
import Verify
@testable import Indexer

/// Issue 17 items 1, 4 and 8 on the real file system: the dump walk goes by descriptors,
/// never through a symlink, and reports (per path, with a `walk.*` code, exit 1) every entry
/// it could not read or chose not to enter; names that are not UTF-8 are kept as bytes;
/// `put`, `ingest` and `verify` read regular files only, within `EXHIBIT_MAX_FILE_SIZE`.
@Suite(.serialized, .enabled(if: Hostile.isRoot && Hostile.synthPath() != nil, "needs root (setpriv) and capture-synth"))
struct DumpWalkTests {
    let s = Scratch()
    var dump: String { s.path + "/dump" }

    /// The capture folders of the dump, sorted.
    func captureFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dump + "/captures").sorted().map { dump + "/captures/" + $0 }
    }

    /// The JSON objects of `text`, one a line.
    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The walk problems of an ingest summary or of verify's `walk` lines: (code, path, target).
    static func problems(_ text: String) -> [(code: String, path: String, target: String?)] {
        let objects = lines(text)
        let fromSummary = objects.compactMap { $0["walk"] as? [[String: Any]] }.flatMap { $0 }
        let fromLines = objects.filter { $0["type"] as? String == "walk" }
        return (fromSummary + fromLines).map { ($0["code"] as? String ?? "", $0["path"] as? String ?? "", $0["target"] as? String) }
    }

    /// Writes `bytes` at `path`, making its folder.
    func write(_ path: String, _ bytes: [UInt8]) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    }

    /// Every regular file under `folder` (following nothing).
    func regularFiles(under folder: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: folder) else { return [] }
        return e.compactMap { $0 as? String }.map { folder + "/" + $0 }.filter {
            (try? FileSystem.status(atPath: $0))?.isRegularFile == true
        }
    }

    /// `stat ID` answers: the blob is in the archive.
    func stored(_ bytes: [UInt8]) -> Bool {
        cli(["stat", ContentID.sha256(of: bytes).hex, "--archive", s.archive]).code == .success
    }

    /// After any of these runs the archive is sound: audit finds nothing damaged, the log
    /// verifies, and it holds `records` records.
    func expectArchiveSound(records: Int) {
        let audit = cli(["audit", "--archive", s.archive])
        #expect(audit.code == .success && audit.out.contains("0 damaged"), "audit: \(audit.out) \(audit.err)")
        let log = cli(["log", "--verify", "--archive", s.archive])
        #expect(log.code == .success, "log --verify: \(log.out) \(log.err)")
        let count = cli(["query", "--count", "--json", "--archive", s.archive])
        #expect(count.out.contains("\"matches\":\(records)"), "query --count: \(count.out)")
    }

    @Test func symlinkedFoldersAtEveryDepthAreReportedNeverEntered() throws {
        try Hostile.dump(at: dump, stills: 4)
        let outside = s.path + "/outside"
        let folders = try captureFolders()
        // Outside the dump: files that a walk following links would find under every name.
        var outsideFiles: [String: [UInt8]] = [:]
        for (i, name) in ["evidence/audio.caf", "evidence/sensors.jsonl", "evidence/secret.txt", "ring/frame-p1.jpg",
                          "disclosure/full.bundle.json", "capture/IMG_20260101_000000_000.jpg"].enumerated() {
            let bytes = pseudoRandom(3000 + i, seed: UInt64(100 + i))
            try write(outside + "/" + name, bytes)
            outsideFiles[name] = bytes
        }
        // evidence/ → outside; evidence/ring/ → outside; disclosure/ → outside; a capture folder
        // → outside; a child of the dump root → /etc.
        try FileManager.default.removeItem(atPath: folders[0] + "/evidence")
        try FileManager.default.createSymbolicLink(atPath: folders[0] + "/evidence", withDestinationPath: outside + "/evidence")
        try FileManager.default.removeItem(atPath: folders[1] + "/evidence/ring")
        try FileManager.default.createSymbolicLink(atPath: folders[1] + "/evidence/ring", withDestinationPath: outside + "/ring")
        try FileManager.default.removeItem(atPath: folders[2] + "/disclosure")
        try FileManager.default.createSymbolicLink(atPath: folders[2] + "/disclosure", withDestinationPath: outside + "/disclosure")
        try FileManager.default.createSymbolicLink(atPath: dump + "/captures/linked", withDestinationPath: outside + "/capture")
        try FileManager.default.createSymbolicLink(atPath: dump + "/etc", withDestinationPath: "/etc")

        #expect(cli(["init", "--archive", s.archive]).code == .success)
        let r = cli(["ingest", "--no-media", "--json", "--archive", s.archive, dump])
        #expect(r.code == .failure, "the walk's reports make the exit 1: \(r.err)")
        let found = Self.problems(r.out)
        let expected: [(String, String)] = [(folders[0] + "/evidence", outside + "/evidence"),
                                            (folders[1] + "/evidence/ring", outside + "/ring"),
                                            (folders[2] + "/disclosure", outside + "/disclosure"),
                                            (dump + "/captures/linked", outside + "/capture"), (dump + "/etc", "/etc")]
        for (path, target) in expected {
            #expect(found.contains { $0.code == StatusCode.walkSymlink && $0.path == path && $0.target == target },
                    "\(path) must be reported with its target; got \(found)")
        }
        #expect(r.err.contains("walk: walk.symlink: \(dump)/etc: symlink to /etc; not followed"))
        // Nothing outside the dump was stored: no blob equals any file there, nor /etc's.
        for (name, bytes) in outsideFiles { #expect(!stored(bytes), "\(name) from outside the dump was stored") }
        for path in regularFiles(under: "/etc").prefix(400) {
            guard let bytes = FileManager.default.contents(atPath: path), !bytes.isEmpty, bytes.count < 1 << 20 else { continue }
            #expect(!stored(Array(bytes)), "\(path) was stored")
        }
        // The four captures are archived (the linked folder is not one), and the archive is sound.
        expectArchiveSound(records: 4)
        // verify reports the same symlinks and exits 1.
        let v = cli(["verify", "--no-media", "--json", dump])
        #expect(v.code == .failure)
        #expect(Self.problems(v.out).filter { $0.code == StatusCode.walkSymlink }.count == expected.count, "\(v.out)")
    }

    @Test func unreadableFolderIsReportedAsAnotherUser() throws {
        try Hostile.dump(at: dump, stills: 2)
        let binary = try Hostile.publicCopy(of: try #require(binaryPath()), in: s.path)
        chmod(s.path, 0o755)
        let folders = try captureFolders()
        #expect(chmod(folders[0], 0o000) == 0)
        #expect(chmod(folders[1] + "/evidence/ring", 0o000) == 0)
        defer { chmod(folders[0], 0o755); chmod(folders[1] + "/evidence/ring", 0o755) }
        let r = try Hostile.run(binary, ["verify", "--no-media", "--json", dump], asUser: 65534)
        #expect(!r.signalled && r.status == 1, "\(r)")
        let found = Self.problems(r.out)
        #expect(found.contains { $0.code == StatusCode.walkUnreadable && $0.path == folders[0] }, "\(found)")
        #expect(found.contains { $0.code == StatusCode.walkUnreadable && $0.path == folders[1] + "/evidence/ring" }, "\(found)")
        // The readable capture is still verified.
        #expect(Self.lines(r.out).contains { ($0["path"] as? String)?.hasPrefix(folders[1] + "/") == true })
    }

    @Test func namesThatAreNotUTF8AreStoredLosslessly() throws {
        try Hostile.dump(at: dump, stills: 1)
        let folder = try #require(try captureFolders().first)
        // The capture folder and an evidence file renamed to Latin-1 bytes (caf\xe9).
        let oddFolder = Array((dump + "/captures/caf").utf8) + [0xe9]
        #expect(rename(folder, oddFolder.map { CChar(bitPattern: $0) } + [0]) == 0)
        let folderText = PathText.encode(oddFolder)
        let note = oddFolder + Array("/evidence/not".utf8) + [0xff] + Array(".txt".utf8)
        let noteBytes = pseudoRandom(777, seed: 5)
        let fd = open(note.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(fd >= 0)
        _ = noteBytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)

        #expect(cli(["init", "--archive", s.archive]).code == .success)
        let r = cli(["ingest", "--no-media", "--json", "--archive", s.archive, dump])
        let items = Self.lines(r.out).filter { $0["type"] as? String != "summary" }
        #expect(items.count == 1 && items.first?["outcome"] as? String == "new", "\(r.out) \(r.err)")
        #expect((items.first?["path"] as? String)?.hasPrefix(folderText + "/") == true, "text form of the name: \(r.out)")
        #expect(Self.problems(r.out).isEmpty, "\(r.out)")
        #expect(!r.out.contains("io.cannotOpen"), "\(r.out)")
        // The unreferenced file with a non-UTF-8 name is stored with its bytes.
        #expect(stored(noteBytes))
        expectArchiveSound(records: 1)
    }

    @Test func capturesDeeperThanTheLimitAreReported() throws {
        try Hostile.dump(at: dump, stills: 1)
        let folder = try #require(try captureFolders().first)
        var deep = dump
        for _ in 0..<WalkLimits.standard.maxDepth { deep += "/d" }
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder, toPath: deep + "/capture")
        let v = cli(["verify", "--no-media", "--json", dump])
        #expect(v.code == .failure)
        let found = Self.problems(v.out)
        #expect(found.contains { $0.code == StatusCode.walkTooDeep && deep.hasPrefix($0.path) }, "\(found)")
        #expect(!v.err.contains("no capture found") || !found.isEmpty)
    }

    @Test func folderWithTooManyEntriesIsReported() throws {
        // A limit this low only in-process (the command's walk uses the standard limits).
        try Hostile.dump(at: dump, stills: 4)  // the root holds 3 entries, captures/ 4
        let found = try CaptureVerifier.walk(dump, limits: WalkLimits(maxDepth: 16, maxEntries: 3))
        #expect(found.problems.contains { $0.code == StatusCode.walkTooMany && $0.path == dump + "/captures" }, "\(found.problems)")
        #expect(found.captures.isEmpty)
    }

    @Test func fifoDevicesAndProcFilesAreRefusedByName() throws {
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        let fifo = s.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/zero", "/dev/urandom"] {
            let r = cli(["put", "--archive", s.archive, path])
            #expect(r.code == .failure && r.err.contains(StatusCode.ioNotRegularFile), "put \(path): \(r.err)")
        }
        let proc = cli(["put", "--archive", s.archive, "/proc/self/status"])
        #expect(proc.code == .failure && proc.err.contains(StatusCode.ioSourceChanged), "put /proc: \(proc.err)")
        #expect(!stored([]), "a /proc file must not be stored as empty")
        let v = cli(["verify", "--json", "/proc/self/status"])
        #expect(v.code == .failure && v.out.contains(StatusCode.ioSourceChanged), "verify /proc: \(v.out)")

        // A FIFO where a delivery file and a sidecar sit: ingest finishes, each named.
        try Hostile.dump(at: dump, stills: 1)
        let folder = try #require(try captureFolders().first)
        #expect(mkfifo(folder + "/IMG_FIFO.jpg", 0o600) == 0)
        try FileManager.default.removeItem(atPath: folder + "/evidence/audio.caf")
        #expect(mkfifo(folder + "/evidence/audio.caf", 0o600) == 0)
        let r = cli(["ingest", "--no-media", "--json", "--archive", s.archive, dump])
        #expect(r.code == .failure)
        #expect(r.out.contains(StatusCode.verifyNotRegularFile), "\(r.out)")
        expectArchiveSound(records: 0 + Self.lines(r.out).filter { $0["outcome"] as? String == "new" }.count)
    }

    @Test func filesOverTheLimitAreANamedError() throws {
        let binary = try #require(binaryPath())
        try Hostile.dump(at: dump, stills: 1)
        let small = s.file("small.bin", bytes: pseudoRandom(1000, seed: 1))
        let big = s.file("big.bin", bytes: pseudoRandom(5000, seed: 2))
        let env = [FileLimits.environmentVariable: "4K"]
        #expect(try Hostile.run(binary, ["init", "--archive", s.archive]).status == 0)
        let put = try Hostile.run(binary, ["put", "--archive", s.archive, small, big], environment: env)
        #expect(put.status == 1 && put.err.contains("\(StatusCode.ioTooLarge): \(big) is 5000 bytes, over the limit of 4096 bytes"), "\(put)")
        #expect(stored(pseudoRandom(1000, seed: 1)) && !stored(pseudoRandom(5000, seed: 2)))
        let verify = try Hostile.run(binary, ["verify", "--no-media", "--json", dump], environment: env)
        #expect(verify.status == 1 && verify.out.contains(StatusCode.ioTooLarge), "\(verify)")
        let ingest = try Hostile.run(binary, ["ingest", "--no-media", "--json", "--archive", s.archive, dump], environment: env)
        #expect(ingest.status == 1 && ingest.out.contains(StatusCode.ioTooLarge), "\(ingest)")
        let bad = try Hostile.run(binary, ["put", "--archive", s.archive, small], environment: [FileLimits.environmentVariable: "lots"])
        #expect(bad.status == 2 && bad.err.contains(FileLimits.environmentVariable), "\(bad)")
        expectArchiveSound(records: 0 + (Self.lines(ingest.out).contains { $0["outcome"] as? String == "new" } ? 1 : 0))
    }
}
