import CLI
import Synthesis

/// `capture-synth OUT --stills N --videos M [options]`: its command line, for the shared
/// parser, help, completion scripts and manual page.
enum CaptureSynthCommand: CommandSpec {
    static let name = "capture-synth"
    static let abstract = "Write a dump of signed captures into OUT (absent or empty) and OUT/expected.json."
    static var discussion: String {
        """
        Real JPEG / 1080p H.264+AAC media with C2PA manifests, every evidence sink, disclosure
        bundles, and OUT/expected.json saying what each capture should give. Trust anchors:
        OUT/trust/signer-root.pem (device CA root), OUT/trust/tsa-root.pem (TSA root).
        --faults all (or a comma-separated list) adds one faulted capture per fault. Fault names:

        \(SynthFault.allCases.map { "  \($0.name.padding(toLength: 36)) \($0.summary)" }.joined(separator: "\n"))

        Exit status: 0 written, 1 generation failed, 2 usage error.
        """
    }
    static let options = [
        OptionSpec("stills", value: "n", help: "Clean still captures (JPEG + evidence + bundles); required."),
        OptionSpec("videos", value: "m", help: "Clean video captures (1080p H.264 ~10 Mb/s + AAC, streamed-chunk root); required."),
        OptionSpec("seed", value: "s", help: "Unsigned 64-bit seed (default 1); same seed → same media, records, layout."),
        OptionSpec("video-seconds", value: "t", help: "Length of each video in seconds (default 10, at most 3600)."),
        OptionSpec("video-mbps", value: "r", help: "Bit rate of each video in Mb/s (default 10, 1 to 800): big videos for the memory bench."),
        OptionSpec("faults", value: "list", help: "none (default), all, or a comma-separated list of fault names.",
                   completion: .choices(["none", "all"] + SynthFault.allCases.map(\.name))),
        OptionSpec("jobs", value: "j", help: "Worker threads for signing and sidecars (default: number of cores)."),
        OptionSpec("ffmpeg", value: "path", help: "ffmpeg binary (default /usr/bin/ffmpeg).", completion: .file),
        OptionSpec("generate-completion-script", value: "shell", help: "Print a completion script for bash, zsh or fish.",
                   completion: .choices(CompletionScript.Shell.allCases.map(\.rawValue))),
        OptionSpec("generate-manual", help: "Print the manual page (roff)."),
    ]
    /// Optional for the parser: --generate-completion-script and --generate-manual take none;
    /// a run without OUT is a usage error (main.swift).
    static let arguments = [ArgumentSpec("out", help: "The dump directory to write (absent or empty).", optional: true, completion: .directory)]
}

extension String {
    /// Padded with spaces to `width` characters (never cut).
    func padding(toLength width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
