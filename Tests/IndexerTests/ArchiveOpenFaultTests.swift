import CAS
import Foundation
import Testing
@testable import Indexer

/// Issue 17 item 2: an archive that cannot be opened as asked is a named error with exit 3,
/// never an abort (it was `free(): double free detected`, exit 134, on every one of these);
/// an archive that can only be read answers every reading command. Real file systems: a
/// read-only bind mount, an immutable lock.mdb (chattr +i), another user (setpriv).
@Suite(.serialized, .enabled(if: Hostile.isRoot, "needs root: mount, chattr, setpriv"))
struct ArchiveOpenFaultTests {
    /// An archive holding an ingest of two stills and one put blob, and what it answers.
    final class Fixture {
        let scratch = Scratch()
        let binary: String
        let archive: String
        let dump: String
        let blob: String
        let blobBytes: [UInt8]
        let records: Int
        let events: Int

        init() throws {
            binary = try Hostile.publicCopy(of: try #require(binaryPath(), "build exhibit-archive first"), in: scratch.path)
            chmod(scratch.path, 0o755)
            archive = scratch.path + "/archive"
            dump = scratch.path + "/dump"
            try Hostile.dump(at: dump, stills: 2)
            blobBytes = pseudoRandom(300_000, seed: 17)
            let file = scratch.file("blob.bin", bytes: blobBytes)
            #expect(try Hostile.run(binary, ["init", "--archive", archive]).status == 0)
            let ingest = try Hostile.run(binary, ["ingest", "--no-media", "--archive", archive, dump,
                                                  "--trust", dump + "/trust/signer-root.pem", "--tsa-trust", dump + "/trust/tsa-root.pem"])
            #expect(ingest.status == 0, "\(ingest)")
            let put = try Hostile.run(binary, ["put", "--archive", archive, file])
            blob = String(put.out.prefix(64))
            let count = try Hostile.run(binary, ["query", "--count", "--json", "--archive", archive])
            records = try #require(Self.int("matches", in: count.out))
            let log = try Hostile.run(binary, ["log", "--verify", "--json", "--archive", archive])
            events = try #require(Self.int("events", in: log.out))
            #expect(records == 2 && events > 0)
        }

        static func int(_ key: String, in json: String) -> Int? {
            for line in json.split(separator: "\n") {
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if let v = o[key] as? Int { return v }
            }
            return nil
        }

        /// A copy of the archive (files and modes kept).
        func copy(_ name: String) throws -> String {
            let to = scratch.path + "/" + name
            try Hostile.tool("/bin/cp", ["-a", archive, to])
            return to
        }
    }

    /// Every reading command answers, and says what it read.
    func expectReads(_ f: Fixture, _ archive: String, asUser uid: UInt32? = nil) throws {
        func run(_ args: [String]) throws -> ChildRun {
            let r = try Hostile.run(f.binary, args + ["--archive", archive], asUser: uid)
            #expect(!r.signalled, "\(args): \(r)")
            return r
        }
        let count = try run(["query", "--count", "--json"])
        #expect(count.status == 0 && Fixture.int("matches", in: count.out) == f.records, "query: \(count)")
        let list = try run(["query", "--format", "csv"])
        let id = try #require(list.out.split(separator: "\n").dropFirst().first?.split(separator: ",").first.map(String.init))
        let show = try run(["show", id])
        #expect(show.status == 0 && show.out.contains("record \(id)"), "show: \(show)")
        let log = try run(["log", "--verify", "--json"])
        #expect(log.status == 0 && Fixture.int("events", in: log.out) == f.events, "log: \(log)")
        #expect(try run(["log"]).status == 0)
        let get = try run(["get", f.blob])
        #expect(get.status == 0 && Array(get.out.utf8).count > 0, "get: \(get)")
        let stat = try run(["stat", f.blob])
        #expect(stat.status == 0 && stat.out.contains("size \(f.blobBytes.count)"), "stat: \(stat)")
        #expect(try run(["stats"]).status == 0)
        #expect(try run(["trust", "list"]).status == 0)
        let audit = try run(["audit"])
        #expect(audit.status == 0 && audit.out.contains("0 damaged"), "audit: \(audit)")
        #expect(audit.err.contains("not logged"), "audit: \(audit)")
    }

    /// Every writing command fails with exit 3 and `code`, and nothing aborts.
    func expectWritesRefused(_ f: Fixture, _ archive: String, code: String, asUser uid: UInt32? = nil) throws {
        let file = f.scratch.file("new.bin", bytes: pseudoRandom(5000, seed: 99))
        chmod(file, 0o644)
        let commands: [[String]] = [
            ["put", file], ["ingest", "--no-media", f.dump], ["gc"], ["reverify"],
            ["trust", "add", f.dump + "/trust/signer-root.pem"],
            ["export", "--query", "--out", f.scratch.path + "/bag-\(UUID().uuidString)"],
        ]
        for args in commands {
            let r = try Hostile.run(f.binary, args + ["--archive", archive], asUser: uid)
            #expect(!r.signalled && r.status == 3 && r.err.contains("Error: \(code):"), "\(args): \(r)")
        }
    }

    @Test func readOnlyBindMountAnswersReadsAndRefusesWrites() throws {
        let f = try Fixture()
        let mount = f.scratch.path + "/ro"
        let undo = try Hostile.bindReadOnly(f.archive, at: mount)
        defer { undo() }
        try expectReads(f, mount)
        try expectWritesRefused(f, mount, code: "cas.readOnly")
        undo()
        // Nothing was written: the log has exactly the events it had (audit was not logged).
        let log = try Hostile.run(f.binary, ["log", "--verify", "--json", "--archive", f.archive])
        #expect(Fixture.int("events", in: log.out) == f.events)
    }

    @Test func immutableLockFileAnswersReadsAndRefusesWrites() throws {
        let f = try Fixture()
        let a = try f.copy("immutable")
        try Hostile.tool("/usr/bin/chattr", ["+i", a + "/lock.mdb"])
        defer { _ = try? Hostile.run("/usr/bin/chattr", ["-i", a + "/lock.mdb"]) }
        try expectReads(f, a)
        try expectWritesRefused(f, a, code: "cas.storage.permissionDenied")
    }

    @Test func anotherUser() throws {
        let f = try Fixture()
        let nobody: UInt32 = 65534
        // The archive as init makes it (0700): another user may not even read it.
        let r = try Hostile.run(f.binary, ["query", "--count", "--archive", f.archive], asUser: nobody)
        #expect(!r.signalled && r.status == 3 && r.err.contains("Error: cas.storage.permissionDenied:"), "\(r)")
        // Readable by others: reads answer (read-only, without the lock file), writes refused.
        let a = try f.copy("shared")
        chmod(a, 0o755)
        for name in ["data.mdb", "lock.mdb"] { chmod(a + "/" + name, 0o644) }
        try expectReads(f, a, asUser: nobody)
        try expectWritesRefused(f, a, code: "cas.storage.permissionDenied", asUser: nobody)
        // While a process of the owner has it open, another user cannot read it safely.
        let holder = try ContentStore.open(at: a)
        let busy = try Hostile.run(f.binary, ["query", "--count", "--archive", a], asUser: nobody)
        #expect(!busy.signalled && busy.status == 3 && busy.err.contains("Error: cas.storage.busy:"), "\(busy)")
        _ = holder
    }

    @Test func damagedEnvironmentFilesAreNamedErrors() throws {
        let f = try Fixture()
        let commands: [[String]] = [["query", "--count"], ["stats"], ["log"], ["put", f.dump + "/expected.json"], ["ingest", f.dump]]
        func expectAll(_ archive: String, _ code: String) throws {
            for args in commands {
                let r = try Hostile.run(f.binary, args + ["--archive", archive])
                #expect(!r.signalled && r.status == 3 && r.err.contains("Error: \(code):"), "\(archive) \(args): \(r)")
            }
        }
        // A garbage header (both meta pages).
        let garbage = try f.copy("garbage")
        let h = try #require(FileHandle(forUpdatingAtPath: garbage + "/data.mdb"))
        try h.write(contentsOf: Data(pseudoRandom(8192, seed: 5)))
        try h.close()
        try expectAll(garbage, "cas.storage.invalid")
        // data.mdb a directory; lock.mdb a symbolic link.
        let directory = f.scratch.path + "/dir-archive"
        try FileManager.default.createDirectory(atPath: directory + "/data.mdb", withIntermediateDirectories: true)
        try expectAll(directory, "cas.storage.notAFile")
        let linked = try f.copy("linked")
        try FileManager.default.removeItem(atPath: linked + "/lock.mdb")
        try FileManager.default.createSymbolicLink(atPath: linked + "/lock.mdb", withDestinationPath: f.archive + "/lock.mdb")
        try expectAll(linked, "cas.storage.notAFile")
        // The original is untouched.
        let log = try Hostile.run(f.binary, ["log", "--verify", "--archive", f.archive])
        #expect(log.status == 0)
    }
}
