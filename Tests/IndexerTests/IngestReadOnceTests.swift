import Foundation
import Testing

/// Issue 12: at ingest each file of a capture is read from disk once. The real binary ingests
/// a capture-synth dump under `strace -f -y`, which names the file behind every descriptor:
/// each regular file of the dump's captures must be opened exactly once and its bytes read
/// exactly once in all (C2PA validation, sidecar and bundle checks, libav's facts, chunk
/// recomputation and parallax, the thumbnail all read the staged copy), and none mapped. Two
/// dumps: every file under the 4 MiB inline limit (the staged copy is in memory), and a video
/// over it (streamed: the verifier reads the staged chunks back from the store, not the file).
/// Neither asks the file system again by path: no `stat`, `open` or `readlink` names a
/// capture's entry by its absolute path (presence and listings come from the walk).
private let stracePath = "/usr/bin/strace"

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: stracePath) && Hostile.synthPath() != nil,
                "needs /usr/bin/strace and capture-synth"))
struct IngestReadOnceTests {
    static let strace = stracePath
    static let inlineLimit: Int64 = 4 << 20

    @Test func eachInlineFileIsReadFromDiskOnce() throws {
        let base = NSTemporaryDirectory() + "ingest-read-once-" + UUID().uuidString
        defer { if ProcessInfo.processInfo.environment["KEEP_TRACE"] == nil { try? FileManager.default.removeItem(atPath: base) } }
        try Hostile.dump(at: base + "/dump", stills: 2, videos: 1)
        let sizes = try traceIngest(base)
        #expect(sizes.count > 30, "the dump has its captures' files")
        #expect(sizes.values.allSatisfy { $0 <= Self.inlineLimit }, "every file is inline-staged (the property tested)")
    }

    /// A video of ~7.5 MB (over the inline limit): streamed into the store in committed chunks,
    /// and C2PA's hard binding, libav's facts and the chunk recomputation, and the thumbnail
    /// read those chunks back from the store (`StagedBlobSource`), so the file is read once.
    @Test func aStreamedFileIsReadFromDiskOnce() throws {
        let base = NSTemporaryDirectory() + "ingest-read-once-streamed-" + UUID().uuidString
        defer { if ProcessInfo.processInfo.environment["KEEP_TRACE"] == nil { try? FileManager.default.removeItem(atPath: base) } }
        let synth = try #require(Hostile.synthPath())
        let r = try Hostile.run(synth, [base + "/dump", "--stills", "1", "--videos", "1", "--video-seconds", "3", "--video-mbps", "20", "--seed", "4"])
        try #require(r.status == 0 && !r.signalled, "capture-synth: \(r)")
        let sizes = try traceIngest(base)
        #expect(sizes.count > 10, "the dump has its captures' files")
        #expect(sizes.contains { $0.key.hasSuffix(".mp4") && $0.value > Self.inlineLimit }, "the video is streamed (the property tested)")
    }

    /// `verify` (no archive) of a dump whose files are all under the inline limit reads each
    /// file once too (`CaptureVerifier.verifyWalked`: one walk, each file read once into
    /// memory, presence and listings from the walk) and asks nothing by path.
    @Test func verifyReadsEachInlineFileOnceAndAsksNothingByPath() throws {
        let base = NSTemporaryDirectory() + "verify-read-once-" + UUID().uuidString
        defer { if ProcessInfo.processInfo.environment["KEEP_TRACE"] == nil { try? FileManager.default.removeItem(atPath: base) } }
        try Hostile.dump(at: base + "/dump", stills: 2, videos: 1)
        let sizes = try traceIngest(base, command: "verify")
        #expect(sizes.count > 30 && sizes.values.allSatisfy { $0 <= Self.inlineLimit })
    }

    /// Ingests `base/dump` into `base/archive` (or, `command: "verify"`, verifies it) under
    /// strace and checks every regular file of its captures was opened once, read once in all
    /// and never mapped, and nothing below the captures was looked at by an absolute path;
    /// returns the files' sizes.
    func traceIngest(_ base: String, command: String = "ingest") throws -> [String: Int64] {
        let cli = try #require(binaryPath())
        var args = ["verify", "--json"]
        if command == "ingest" {
            #expect(try Hostile.run(cli, ["init", "--archive", base + "/archive"]).status == 0)
            args = ["ingest", "--archive", base + "/archive"]
        }
        let trace = base + "/trace.txt"
        let run = try Hostile.run(Self.strace, ["-f", "-y", "-qq", "-e", "trace=openat,open,read,pread64,readv,preadv,preadv2,mmap,newfstatat,statx,lstat,stat,readlink,readlinkat",
                                                "-o", trace, cli] + args + ["--jobs", "1",
                                                "--trust", base + "/dump/trust/signer-root.pem",
                                                "--tsa-trust", base + "/dump/trust/tsa-root.pem", base + "/dump"])
        #expect(run.status == 0 && !run.signalled, "\(run)")

        let captures = base + "/dump/captures"
        var sizes: [String: Int64] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: captures))
        for case let rel as String in enumerator {
            let attrs = try FileManager.default.attributesOfItem(atPath: captures + "/" + rel)
            if attrs[.type] as? FileAttributeType == .typeRegular { sizes[captures + "/" + rel] = (attrs[.size] as? NSNumber)?.int64Value ?? -1 }
        }
        #expect(sizes.keys.contains { $0.hasSuffix(".mp4") }, "a video is among them (libav's reads)")

        var opens: [String: Int] = [:], read: [String: Int64] = [:], mapped: Set<String> = []
        var byPath: [Substring] = []  // calls naming a capture's entry by an absolute path
        var unfinished: [Substring: Substring] = [:]  // pid → the start of a call another thread interrupted
        for raw in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
            // `PID call(args <unfinished ...>` … `PID <... call resumed>rest`: joined into one line.
            let pid = raw.prefix { $0.isNumber }
            if let cut = raw.range(of: " <unfinished ...>") {
                unfinished[pid] = raw[..<cut.lowerBound]
                continue
            }
            var line = raw
            if let resumed = raw.range(of: " resumed>"), let start = unfinished.removeValue(forKey: pid) {
                line = Substring(String(start) + raw[resumed.upperBound...])
            }
            let call = Self.call(line)
            if call == "openat" || call == "open", let path = Self.result(line), sizes[path] != nil { opens[path, default: 0] += 1 }
            if ["read", "pread64", "readv", "preadv", "preadv2"].contains(call), let path = Self.firstDescriptor(line), sizes[path] != nil,
               let n = Self.returned(line), n > 0 { read[path, default: 0] += n }
            if call == "mmap", let path = Self.firstDescriptor(line) ?? Self.anyDescriptor(line), sizes[path] != nil { mapped.insert(path) }
            if line.contains("\"" + captures + "/") { byPath.append(line) }
        }
        for (path, size) in sizes.sorted(by: { $0.key < $1.key }) {
            let name = String(path.dropFirst(captures.count + 1))
            #expect(opens[path] == 1, "\(name): opened \(opens[path] ?? 0) times")
            #expect(read[path] == size, "\(name): \(read[path] ?? 0) bytes read of \(size)")
        }
        #expect(mapped.isEmpty, "mapped: \(mapped.sorted())")
        // Presence and listings come from the walk (the snapshot's `CaptureListing`): nothing
        // below the captures is stat'ed, opened or read as a link by an absolute path; every
        // look is relative to a folder descriptor of the walk.
        #expect(byPath.isEmpty, "by path: \(byPath.prefix(5))")
        return sizes
    }

    /// The system call of a trace line (`PID call(…`).
    static func call(_ line: Substring) -> Substring? {
        guard let paren = line.firstIndex(of: "(") else { return nil }
        return line[..<paren].split(separator: " ").last
    }

    /// The path of the descriptor a call returned (`= 6</path>`; a resumed call pads before `=`).
    static func result(_ line: Substring) -> String? {
        guard let eq = line.range(of: " = ", options: .backwards) else { return nil }
        let tail = line[eq.upperBound...]
        guard let lt = tail.firstIndex(of: "<"), let gt = tail.lastIndex(of: ">") else { return nil }
        return String(tail[tail.index(after: lt)..<gt])
    }

    /// The path of a call's first argument when it is a descriptor (`read(6</path>, …`).
    static func firstDescriptor(_ line: Substring) -> String? {
        guard let paren = line.firstIndex(of: "(") else { return nil }
        let args = line[line.index(after: paren)...]
        guard let lt = args.firstIndex(of: "<"), args[..<lt].allSatisfy(\.isNumber), let gt = args.firstIndex(of: ">") else { return nil }
        return String(args[args.index(after: lt)..<gt])
    }

    /// The path of any descriptor in a call's arguments (mmap's fd is its fifth).
    static func anyDescriptor(_ line: Substring) -> String? {
        guard let lt = line.firstIndex(of: "<"), let gt = line[lt...].firstIndex(of: ">") else { return nil }
        return String(line[line.index(after: lt)..<gt])
    }

    /// The call's return value.
    static func returned(_ line: Substring) -> Int64? {
        guard let eq = line.range(of: " = ", options: .backwards) else { return nil }
        return Int64(line[eq.upperBound...].prefix { $0.isNumber || $0 == "-" })
    }
}
