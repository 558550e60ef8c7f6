import CLI
import Foundation
import Ground
import Synthesis

/// `capture-synth OUT --stills N --videos M [--seed S] [--video-seconds T] [--video-mbps R] [--faults none|all|LIST]`
/// Exit codes: 0 written, 1 generation failed, 2 usage error. The command line is parsed by the
/// shared `CLI` parser (the conventions of exhibit-archive: --name value or --name=value,
/// did-you-mean, --help, --version).
let program = Program(name: "capture-synth", version: Product.version, main: CaptureSynthCommand.self)
let console = Console.standard()
let environment = ProcessInfo.processInfo.environment
let help = HelpText(program: program, width: environment["COLUMNS"].flatMap { Int($0) } ?? console.terminalColumns)

@MainActor func usageError(_ message: String) -> Never {
    console.err("Error: \(message)")
    console.lines(help.usage(CaptureSynthCommand.self), toStderr: true)
    console.err("  See 'capture-synth --help' for more information.")
    exit(ExitCode.usage.rawValue)
}

@MainActor func fail(_ message: String) -> Never {
    console.err("Error: \(message)")
    exit(ExitCode.failure.rawValue)
}

let invocation: Invocation
do { invocation = try ArgumentParser(program: program).parse(Array(CommandLine.arguments.dropFirst())) } catch let e as UsageError {
    usageError(e.message)
} catch {
    usageError("\(error)")
}
let args: ParsedArguments
switch invocation {
case .help, .rootHelp:
    console.writeOut(Array(help.root().utf8))
    exit(0)
case .version:
    console.out("capture-synth \(program.version)")
    exit(0)
case .run(_, let parsed):
    args = parsed
}
if let shell = args.value("generate-completion-script") {
    guard let s = CompletionScript.Shell(rawValue: shell) else {
        usageError("unknown shell '\(shell)': use bash, zsh or fish" + Suggestion.didYouMean(shell, among: ["bash", "zsh", "fish"]))
    }
    console.writeOut(Array(CompletionScript(program: program).script(for: s).utf8))
    exit(0)
}
if args.flag("generate-manual") {
    console.writeOut(Array(ManualPage(program: program).roff().utf8))
    exit(0)
}

@MainActor func count(_ option: String) -> Int {
    guard let text = args.value(option) else { usageError("--\(option) is required (a whole number ≥ 0)") }
    guard let n = Int(text), n >= 0 else { usageError("--\(option) must be a whole number ≥ 0, not '\(text)'") }
    return n
}
guard args.positionals.count == 1 else { usageError(args.positionals.isEmpty ? "missing OUT" : "one OUT directory only") }
let out = args.positionals[0]
let stills = count("stills"), videos = count("videos")
var seed: UInt64 = 1, seconds = 10.0, jobs = ProcessInfo.processInfo.activeProcessorCount
var faults: [SynthFault] = []
if let s = args.value("seed") {
    guard let v = UInt64(s) else { usageError("--seed takes an unsigned integer, not '\(s)'") }
    seed = v
}
if let t = args.value("video-seconds") {
    guard let v = Double(t), v > 0, v <= 3600 else { usageError("--video-seconds takes a number in (0, 3600], not '\(t)'") }
    seconds = v
}
var mbps = SynthOptions.defaultVideoMbps
if let m = args.value("video-mbps") {
    guard let v = Int(m), SynthOptions.videoMbpsRange.contains(v) else {
        usageError("--video-mbps takes a whole number in \(SynthOptions.videoMbpsRange), not '\(m)'")
    }
    mbps = v
}
if let f = args.value("faults") {
    do { faults = try SynthFault.parseList(f) } catch { usageError(error.detail) }
}
if let j = args.value("jobs") {
    guard let v = Int(j), v >= 1 else { usageError("--jobs takes a positive integer, not '\(j)'") }
    jobs = v
}
let ffmpeg = args.value("ffmpeg") ?? "/usr/bin/ffmpeg"

let start = Date()
do {
    var options = SynthOptions(stills: stills, videos: videos, seed: seed, videoSeconds: seconds, faults: faults,
                               ffmpeg: ffmpeg, concurrency: jobs)
    options.videoMbps = mbps
    let expected = try DumpSynthesizer(options: options).write(to: out)
    let byIntegrity = Dictionary(grouping: expected.captures, by: \.integrity).mapValues(\.count)
    console.out("wrote \(expected.captures.count) captures to \(out) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
    console.out("  stills \(stills), videos \(videos), fault captures \(expected.captures.filter { !$0.faults.isEmpty }.count)")
    console.out("  integrity: " + byIntegrity.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    console.out("  expected: \(out)/expected.json; anchors: \(out)/\(expected.signerRoot), \(out)/\(expected.tsaRoot)")
} catch let e as SynthError {
    if e.code == StatusCode.synthUsage { usageError(e.description) }
    fail(e.description)
} catch {
    fail("\(error)")
}
