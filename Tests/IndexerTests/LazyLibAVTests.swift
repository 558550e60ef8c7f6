import Foundation
import Ground
import TestLiterals
import Testing

/// libav is loaded the first time media work runs (Sources/CAVLoader, docs/media.md "Loading
/// libav"), not at start-up. Child processes, because the loader's one-time init is per process.
@Suite struct LazyLibAVTests {
    /// The shared libraries of FFmpeg (any of them would drag in the codec libraries).
    static func isLibAV(_ soname: String) -> Bool {
        ["libavformat.so", "libavcodec.so", "libavutil.so", "libswscale.so", "libswresample.so",
         "libavfilter.so", "libavdevice.so", "libpostproc.so"].contains { soname.hasPrefix($0) }
    }

    struct Output {
        let status: Int32
        let out: String
        let err: String
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    directory: String? = nil) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes to the end before waiting (LD_DEBUG output can exceed a pipe buffer).
        let errData = ErrorReader(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Output(status: p.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                      err: String(decoding: errData.wait(), as: UTF8.self))
    }

    /// Drains a pipe on its own thread.
    final class ErrorReader: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)
        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }
        func wait() -> Data {
            done.wait()
            return data
        }
    }

    static func sibling(_ name: String) throws -> String {
        let cli = try #require(binaryPath(), "exhibit-archive must be built (swift build)")
        let p = URL(fileURLWithPath: cli).deletingLastPathComponent().appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: p), "\(name) must be built (swift build)")
        return p
    }

    @Test func binaryHasNoNeededEntryForLibAV() throws {
        let cli = try #require(binaryPath(), "exhibit-archive must be built (swift build)")
        let r = try Self.run("/usr/bin/readelf", ["-d", cli])
        #expect(r.status == 0, "\(r.err)")
        let needed = r.out.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line -> String? in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]"), open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        // The parse works: the libraries linked at build time are there.
        #expect(needed.contains("libcrypto.so.3"), "\(needed)")
        #expect(needed.contains { $0.hasPrefix("liblmdb.so") }, "\(needed)")
        #expect(needed.filter(Self.isLibAV).isEmpty, "\(needed)")
    }

    /// The dynamic loader's own trace: `--help` maps no libav; media work maps it then.
    @Test func libavIsMappedOnlyWhenMediaWorkRuns() throws {
        let cli = try #require(binaryPath(), "exhibit-archive must be built (swift build)")
        let help = try Self.run(cli, ["--help"], environment: ["LD_DEBUG": "files"])
        #expect(help.status == 0)
        #expect(help.err.contains("libcrypto.so.3"), "LD_DEBUG trace missing")
        #expect(!help.err.contains("libavutil.so") && !help.err.contains("libavformat.so"))

        let s = Scratch()
        let jpeg = s.path + "/one.jpg"
        let ff = try Self.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                                 "testsrc=size=64x48:rate=1", "-frames:v", "1", jpeg])
        #expect(ff.status == 0, "\(ff.err)")
        let facts = try Self.run(try Self.sibling("MediaBench"), ["facts", jpeg], environment: ["LD_DEBUG": "files"])
        #expect(facts.status == 0, "\(facts.out)")
        #expect(facts.err.split(separator: "\n").contains { $0.contains("file=libavformat.so.") && $0.contains("dynamically loaded") },
                "no dlopen of libavformat in the trace")
        #expect(facts.out.contains("\"width\":64"), "\(facts.out)")
    }

    /// With `EXHIBIT_LIBAV_DIR` naming an empty directory the libraries cannot be loaded:
    /// `MediaFacts.read` throws `media.libavUnavailable`; `verify` still reports every capture,
    /// each media measurement carrying that error, with the exit code integrity gives.
    @Test func unloadableLibAVIsAPerFileMediaError() throws {
        let s = Scratch()
        let empty = s.path + "/no-libav"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let unloadable = ["EXHIBIT_LIBAV_DIR": empty]

        let dump = s.path + "/dump"
        let synth = try Self.run(try Self.sibling("capture-synth"),
                                 [dump, "--stills", "1", "--videos", "1", "--video-seconds", "1", "--seed", "11", "--jobs", "1"])
        #expect(synth.status == 0, "\(synth.err)")
        let captures = try FileManager.default.contentsOfDirectory(atPath: dump + "/captures")
        let still = try #require(captures.compactMap { c -> String? in
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dump + "/captures/" + c)) ?? []
            return files.first { $0.hasSuffix(".jpg") }.map { dump + "/captures/" + c + "/" + $0 }
        }.first)

        // MediaFacts.read itself (MediaBench prints the thrown MediaError and exits 2).
        let mediaBench = try Self.sibling("MediaBench")
        let failed = try Self.run(mediaBench, ["facts", still], environment: unloadable)
        #expect(failed.status == 2)
        #expect(failed.err.hasPrefix("media.libavUnavailable: \(empty)/libavutil.so."), "\(failed.err)")
        #expect(failed.out.isEmpty)
        let loaded = try Self.run(mediaBench, ["facts", still])
        #expect(loaded.status == 0 && loaded.out.contains("\"codec\":\"mjpeg\""), "\(loaded.err)")

        let cli = try #require(binaryPath())
        let args = ["verify", "--json", dump, "--trust", dump + "/trust/signer-root.pem", "--tsa-trust", dump + "/trust/tsa-root.pem"]
        let without = try Self.run(cli, args, environment: unloadable)
        let with = try Self.run(cli, args)
        #expect(without.status == with.status, "\(without.err)")
        #expect(with.status == 0, "\(with.err)")
        let reportsWithout = try Self.reports(without.out), reportsWith = try Self.reports(with.out)
        #expect(reportsWithout.count == 2 && reportsWith.count == 2)
        for (r, ok) in zip(reportsWithout, reportsWith) {
            #expect(r["recordId"] as? String == ok["recordId"] as? String)
            #expect(r["integrity"] as? String == ok["integrity"] as? String)
            let media = try #require(r["media"] as? [[String: Any]])
            let mediaOK = try #require(ok["media"] as? [[String: Any]])
            #expect(media.count == mediaOK.count && media.count >= 2)
            for (m, mOK) in zip(media, mediaOK) {
                let error = try #require(m["error"] as? [String: Any], "\(m)")
                #expect(error["code"] as? String == "media.libavUnavailable")
                #expect((error["message"] as? String)?.contains("cannot open shared object file") == true)
                #expect(m["facts"] == nil)
                #expect(mOK["error"] == nil && mOK["facts"] != nil)
            }
            switch r["kind"] as? String {
            case "video":
                let re = try #require((r["streamedChunks"] as? [String: Any])?["recomputation"] as? [String: Any])
                let reOK = try #require((ok["streamedChunks"] as? [String: Any])?["recomputation"] as? [String: Any])
                #expect(re["state"] as? String == "not-recomputable")
                #expect((re["findings"] as? [[String: Any]])?.first?["code"] as? String == "media.libavUnavailable")
                #expect(reOK["state"] as? String == "recomputed")
            case "still":
                let p = try #require(r["parallax"] as? [String: Any])
                #expect(p["detail"] as? String == "primary view: media.libavUnavailable")
                #expect((ok["parallax"] as? [String: Any])?["detail"] as? String != p["detail"] as? String)
            default:
                Issue.record("unexpected kind \(String(describing: r["kind"]))")
            }
        }
    }

    /// Ingest without libav: every capture stored with the exit code integrity gives; each new
    /// record's thumbnail entry carries the error instead of a blob.
    @Test func ingestWithoutLibAVStoresEveryRecord() throws {
        let s = Scratch()
        let empty = s.path + "/no-libav"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let dump = s.path + "/dump"
        let synth = try Self.run(try Self.sibling("capture-synth"), [dump, "--stills", "2", "--videos", "0", "--seed", "12", "--jobs", "1"])
        #expect(synth.status == 0, "\(synth.err)")
        let cli = try #require(binaryPath())
        let archive = s.archive
        for args in [["init", "--archive", archive], ["trust", "add", dump + "/trust/signer-root.pem", "--archive", archive],
                     ["trust", "add", dump + "/trust/tsa-root.pem", "--tsa", "--archive", archive]] {
            #expect(try Self.run(cli, args).status == 0, "\(args)")
        }
        let ingest = try Self.run(cli, ["ingest", dump, "--archive", archive, "--jobs", "1"], environment: ["EXHIBIT_LIBAV_DIR": empty])
        #expect(ingest.status == 0, "\(ingest.out)\(ingest.err)")
        let query = try Self.run(cli, ["query", "--archive", archive, "--format", "json"])
        let ids = try Self.reports(query.out).compactMap { $0["recordId"] as? String }
        #expect(ids.count == 2)
        for id in ids {
            let show = try Self.run(cli, ["show", id, "--archive", archive])
            let derived = QueryCommandTests.section(show.out, "Files").filter { $0.hasPrefix("derived thumbnail") }
            #expect(derived.count == 1, "\(show.out)")
            #expect(derived.first?.hasPrefix("derived thumbnail: none from ") == true, "\(derived)")
            #expect(derived.first?.contains("media.libavUnavailable: \(empty)/libavutil.so.") == true, "\(derived)")
        }
    }

    static func reports(_ jsonLines: String) throws -> [[String: Any]] {
        try jsonLines.split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.sorted { ($0["kind"] as? String ?? "") < ($1["kind"] as? String ?? "") }
    }
}
