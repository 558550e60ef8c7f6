import Foundation
import Ground
import Synthesis

/// `capture-synth OUT --stills N --videos M [--seed S] [--video-seconds T] [--faults none|all|LIST]`
/// Exit codes: 0 written, 1 generation failed, 2 usage error.
let usage = """
usage: capture-synth OUT --stills N --videos M [--seed S] [--video-seconds T] [--faults none|all|LIST]
                     [--jobs J] [--ffmpeg PATH]

Writes a dump of signed captures into OUT (absent or empty) and OUT/expected.json.
  --stills N          clean still captures (JPEG + evidence + bundles)
  --videos M          clean video captures (1080p H.264 ~10 Mb/s + AAC, streamed-chunk root)
  --seed S            unsigned 64-bit seed (default 1); same seed → same media, records, layout
  --video-seconds T   length of each video (default 10)
  --faults F          none (default), all, or a comma-separated list; each fault adds one capture
  --jobs J            worker threads for signing and sidecars (default: number of cores)
  --ffmpeg PATH       ffmpeg binary (default /usr/bin/ffmpeg)

Trust anchors: OUT/trust/signer-root.pem (device CA root), OUT/trust/tsa-root.pem (TSA root).
Fault names:
\(SynthFault.allCases.map { "  \($0.name.padding(toLength: 36, withPad: " ", startingAt: 0)) \($0.summary)" }.joined(separator: "\n"))

Exit status: 0 written, 1 generation failed, 2 usage error.
"""

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("capture-synth: \(message)\n".utf8))
    exit(code)
}

struct Arguments {
    var out: String?
    var stills: Int?, videos: Int?
    var seed: UInt64 = 1, seconds = 10.0
    var faults: [SynthFault] = []
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var ffmpeg = "/usr/bin/ffmpeg"

    init(_ args: [String]) {
        var i = 0
        func value(_ flag: String) -> String {
            i += 1
            guard i < args.count else { fail("\(flag) needs a value\n\(usage)", code: 2) }
            return args[i]
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--stills": stills = Int(value(a)) ?? -1
            case "--videos": videos = Int(value(a)) ?? -1
            case "--seed":
                guard let s = UInt64(value(a)) else { fail("--seed takes an unsigned integer", code: 2) }
                seed = s
            case "--video-seconds":
                guard let t = Double(value(a)), t > 0, t <= 3600 else { fail("--video-seconds takes a number in (0, 3600]", code: 2) }
                seconds = t
            case "--faults":
                do { faults = try SynthFault.parseList(value(a)) } catch { fail(error.detail, code: 2) }
            case "--jobs":
                guard let j = Int(value(a)), j >= 1 else { fail("--jobs takes a positive integer", code: 2) }
                jobs = j
            case "--ffmpeg": ffmpeg = value(a)
            default:
                if a.hasPrefix("-") { fail("unknown flag \(a)\n\(usage)", code: 2) }
                guard out == nil else { fail("one OUT directory only\n\(usage)", code: 2) }
                out = a
            }
            i += 1
        }
    }
}

let args = Array(CommandLine.arguments.dropFirst())
if args.contains("--help") || args.contains("-h") {
    print(usage)
    exit(0)
}
let parsed = Arguments(args)
guard let out = parsed.out else { fail("missing OUT\n\(usage)", code: 2) }
guard let stills = parsed.stills, stills >= 0 else { fail("--stills N is required (N ≥ 0)", code: 2) }
guard let videos = parsed.videos, videos >= 0 else { fail("--videos M is required (M ≥ 0)", code: 2) }
let seed = parsed.seed, seconds = parsed.seconds, faults = parsed.faults, jobs = parsed.jobs, ffmpeg = parsed.ffmpeg

let start = Date()
do {
    let options = SynthOptions(stills: stills, videos: videos, seed: seed, videoSeconds: seconds, faults: faults,
                               ffmpeg: ffmpeg, concurrency: jobs)
    let expected = try DumpSynthesizer(options: options).write(to: out)
    let byIntegrity = Dictionary(grouping: expected.captures, by: \.integrity).mapValues(\.count)
    print("wrote \(expected.captures.count) captures to \(out) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
    print("  stills \(stills), videos \(videos), fault captures \(expected.captures.filter { !$0.faults.isEmpty }.count)")
    print("  integrity: " + byIntegrity.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    print("  expected: \(out)/expected.json; anchors: \(out)/\(expected.signerRoot), \(out)/\(expected.tsaRoot)")
} catch let e as SynthError {
    fail(e.description, code: e.code == StatusCode.synthUsage ? 2 : 1)
} catch {
    fail("\(error)", code: 1)
}
