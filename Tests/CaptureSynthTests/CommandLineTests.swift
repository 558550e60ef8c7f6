import CLI
import Foundation
import Ground
import Synthesis
import TestLiterals
import Testing

/// The `capture-synth` executable (built beside the test bundle): help text, exit codes, and a
/// small dump whose expected.json decodes.
@Suite struct CommandLineTests {
    static let binary: String? = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("capture-synth").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()

    func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(Self.binary))
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test(.enabled(if: binary != nil, "capture-synth not built")) func helpAndUsageErrors() throws {
        let help = try run(["--help"])
        #expect(help.status == 0)
        for f in SynthFault.allCases { #expect(help.out.contains("  \(f.name) "), "\(f.name)") }
        #expect(try run(["/tmp/never-written", "--stills", "1"]).status == 2, "missing --videos")
        let bad = try run(["/tmp/never-written", "--stills", "1", "--videos", "0", "--faults", "media-flip,nope"])
        #expect(bad.status == 2 && bad.err.contains("unknown fault 'nope'"))
        #expect(try run(["/tmp/never-written", "--stills", "1", "--videos", "0", "--seed", "-3"]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written"))
    }

    /// The shared parser's conventions (the CLI library exhibit-archive uses): --version,
    /// --name=value, did-you-mean, usage errors with the usage line, a completion script bash
    /// loads, a man page.
    @Test(.enabled(if: binary != nil, "capture-synth not built")) func sharedConventions() throws {
        let version = try run(["--version"])
        #expect(version.status == 0 && version.out == "capture-synth \(Product.version)\n")
        let typo = try run(["/tmp/never-written", "--stils", "1", "--videos", "0"])
        #expect(typo.status == 2 && typo.err.contains("unknown option '--stils'; did you mean '--stills'?"), "\(typo.err)")
        #expect(typo.err.contains("USAGE: capture-synth "))
        #expect(try run(["/tmp/never-written", "--stills=x", "--videos=0"]).err.contains("--stills must be a whole number"))
        let bash = try run(["--generate-completion-script", "bash"])
        #expect(bash.status == 0 && bash.out.contains("complete -o filenames -F _capture_synth capture-synth"))
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("capture-synth-\(getpid()).bash").path
        try bash.out.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["--norc", "-c", "source '\(script)'; COMP_WORDS=(capture-synth --faults media-); COMP_CWORD=2; _capture_synth; printf '%s\\n' \"${COMPREPLY[@]}\""]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let words = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        p.waitUntilExit()
        #expect(words.contains("media-flip"), "\(words)")
        let man = try run(["--generate-manual"])
        #expect(man.status == 0 && man.out.hasPrefix(".TH CAPTURE\\-SYNTH 1 ") && man.out.contains("media\\-flip"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written"))
    }

    @Test(.enabled(if: binary != nil, "capture-synth not built")) func writesADump() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("capture-synth-\(getpid())-cli").path
        try? FileManager.default.removeItem(atPath: dir)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try run([dir, "--stills", "2", "--videos", "0", "--seed", "3", "--faults", "unsigned", "--jobs", "1"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("wrote 3 captures") && r.out.contains("intact 2, unsigned 1"), "\(r.out)")
        let e = try JSONDecoder().decode(ExpectedDump.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/expected.json")))
        #expect(e.seed == 3 && e.faults == ["unsigned"] && e.captures.count == 3)
        // A second run into the same folder is refused (exit 1), leaving the dump alone.
        let again = try run([dir, "--stills", "1", "--videos", "0"])
        #expect(again.status == 1 && again.err.contains("synth.io"))
    }
}
