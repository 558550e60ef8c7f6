import CAS
import Foundation
import Ground
@testable import Indexer
import TestLiterals
import Testing

@Suite struct ExitCodeTests {
    @Test func usageErrorsExitTwoWithMessageOnStderr() {
        for args in [[], ["bogus"], ["put"], ["get"], ["get", "xyz"], ["audit", "--sample", "2"],
                     ["audit", "--sample"], ["stats", "--nope"], ["stat", "a", "b"], ["--archive", "x", "init"]] {
            let r = cli(args)
            #expect(r.code == .usage, "\(args)")
            #expect(r.out.isEmpty, "\(args)")
            #expect(r.err.hasPrefix("Error: "), "\(args)")
        }
    }

    @Test func missingArchiveExitsThree() {
        let s = Scratch()
        let r = cli(["stats", "--archive", s.path + "/none"])
        #expect(r.code == .archiveUnusable)
        #expect(r.err.contains("cas.notAnArchive"))
    }

    @Test func putGetStatAuditStatsSucceed() throws {
        let s = Scratch()
        let bytes = pseudoRandom(3_000_000, seed: 11)
        let file = s.file("a.bin", bytes: bytes)
        let id = ContentID(of: bytes)
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        // --archive falls back to $EXHIBIT_ARCHIVE.
        let put = cli(["put", file], env: ["EXHIBIT_ARCHIVE": s.archive])
        #expect(put.code == .success)
        #expect(put.out == "\(id.hex) new 3000000 \(file)\n")
        let again = cli(["put", "--json", "--archive", s.archive, file])
        #expect(again.out == "{\"id\":\"\(id.hex)\",\"status\":\"known\",\"bytes\":3000000,\"path\":\"\(file)\"}\n")
        let out = s.path + "/out.bin"
        #expect(cli(["get", id.hex, "-o", out, "--archive", s.archive]).code == .success)
        #expect(FileManager.default.contents(atPath: out) == Data(bytes))
        let stat = cli(["stat", id.hex, "--archive", s.archive])
        #expect(stat.out.hasPrefix("id \(id.hex)\nsize 3000000\nchunk-size \(ContentStore.defaultChunkSize)\nchunks 3\n"))
        let audit = cli(["audit", "--archive", s.archive])
        #expect(audit.code == .success)
        #expect(audit.out == "audit: checked 1 of 1 blobs, 3000000 bytes, 0 damaged\n")
        let stats = cli(["stats", "--json", "--archive=\(s.archive)"])
        #expect(stats.out.hasPrefix("{\"blobs\":1,\"bytes\":3000000,\"chunks\":3,"))
    }

    @Test func failedItemExitsOneAndOthersStillRun() {
        let s = Scratch()
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        let good = s.file("g", bytes: [1, 2, 3])
        let r = cli(["put", "--archive", s.archive, s.path + "/missing", good])
        #expect(r.code == .failure)
        #expect(r.out.hasSuffix(" new 3 \(good)\n"))
        #expect(r.err.contains("cas.input"))
        let absent = ContentID(of: [UInt8]([9]))
        let get = cli(["get", absent.hex, "--archive", s.archive])
        #expect(get.code == .failure)
        #expect(get.err.contains("cas.notFound"))
    }

    @Test func progressBarLine() {
        let bar = ProgressBar(console: .capturing(), items: 4, bytes: 100_000_000, enabled: false)
        bar.advance(items: 1, bytes: 25_000_000)
        #expect(bar.line(elapsed: 1) == "[######------------------] 1/4 items 25.0/100.0 MB 25.0 MB/s ETA 0:03")
    }
}
