import Foundation
import Testing
@testable import Indexer

/// The real program's completion script loaded by bash, its manual page formatted by groff,
/// and the progress bar on a real terminal (a pseudo-terminal from `script`): no stdout line
/// ever starts on the bar's row.
@Suite struct ShellIntegrationTests {
    static func bash(_ script: String, _ words: [String]) throws -> [String] {
        let s = Scratch()
        let file = s.file("exhibit-archive.bash", bytes: Array(script.utf8))
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let body = "source '\(file)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _exhibit_archive; printf '%s\\n' \"${COMPREPLY[@]}\""
        let (status, out, err) = try run("/bin/bash", ["--norc", "--noprofile", "-c", body])
        #expect(status == 0, "\(err)")
        return out.split(separator: "\n").map(String.init).sorted()
    }

    static func run(_ tool: String, _ args: [String], environment: [String: String]? = nil) throws -> (Int32, String, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func bashCompletesTheRealCommandLine() throws {
        let r = cli(["completion", "bash"])
        #expect(r.code == .success)
        #expect(try Self.bash(r.out, ["exhibit-archive", "qu"]) == ["query", "queue"])
        #expect(try Self.bash(r.out, ["exhibit-archive", "ver"]) == ["verify", "verify-export"])
        #expect(try Self.bash(r.out, ["exhibit-archive", "query", "--state", ""]) == ["intact", "malformed", "tampered", "unsigned"])
        #expect(try Self.bash(r.out, ["exhibit-archive", "export", "--query", "--sidecar", "m"]) == ["mismatch", "missing"])
        #expect(try Self.bash(r.out, ["exhibit-archive", "export", "--paper", ""]) == ["a4", "letter"])
        #expect(try Self.bash(r.out, ["exhibit-archive", "trust", ""]) == ["add", "list", "remove"])
        #expect(try Self.bash(r.out, ["exhibit-archive", "completion", ""]) == ["bash", "fish", "zsh"])
        #expect(try Self.bash(r.out, ["exhibit-archive", "log", "--re"]) == ["--record"])
        let bad = cli(["completion", "tcsh"])
        #expect(bad.code == .usage && bad.err.contains("unknown shell 'tcsh'"))
    }

    @Test func manualPageFormatsWithoutWarnings() throws {
        let r = cli(["man"])
        #expect(r.code == .success && r.out.hasPrefix(".TH EXHIBIT\\-ARCHIVE 1 "))
        let s = Scratch()
        let page = s.file("exhibit-archive.1", bytes: Array(r.out.utf8))
        let (status, text, warnings) = try Self.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", page], environment: ["PATH": "/usr/bin:/bin"])
        #expect(status == 0 && warnings.isEmpty, "\(warnings)")
        let plain = text.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        for c in CommandRunner.commands { #expect(plain.contains("exhibit-archive \(c.name)"), "\(c.name)") }
        for section in ["EXIT STATUS", "ENVIRONMENT", "CONVENTIONS", "FILES"] { #expect(plain.contains(section)) }
        #expect(plain.contains("--include-source-paths") && plain.contains("EXHIBIT_CHROMIUM"))
    }

    /// `verify` of a small dump under `script` (a pseudo-terminal on stdin, stdout and stderr):
    /// every time the bar is drawn, the next bytes are the bar's own `\r`, never a line glued to it.
    @Test func progressBarAndLinesShareNoRowOnATerminal() throws {
        let binary = try #require(binaryPath())
        let dump = try VerifyCommandTests.Dump()
        // Several captures so that lines follow a drawn bar.
        for n in 2...6 {
            try FileManager.default.copyItem(atPath: dump.folder, toPath: dump.root + "/captures/c\(n)")
        }
        let log = dump.scratch.path + "/typescript"
        let command = "'\(binary)' verify --no-media --jobs 1 --trust '\(dump.pem)' '\(dump.root)'"
        let (status, _, err) = try Self.run("/usr/bin/script", ["-q", "-e", "-c", command, log], environment: ["PATH": "/usr/bin:/bin", "TERM": "dumb"])
        #expect(status == 0, "\(err)")
        let t = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
        let draws = t.components(separatedBy: "items ").count - 1
        #expect(draws >= 1, "no bar drawn on the terminal: \(t.debugDescription.prefix(500))")
        // After each bar text ("… ETA m:ss" or "ETA --:--") comes a carriage return.
        let eta = /ETA (\d+:\d\d|--:--)(.)/
        for m in t.matches(of: eta) {
            #expect(m.output.2 == "\r", "a line follows the bar on its row: …\(t[max(t.startIndex, t.index(m.range.lowerBound, offsetBy: -60, limitedBy: t.startIndex) ?? t.startIndex)..<m.range.upperBound].debugDescription)")
        }
        #expect(t.contains("\r\u{1b}[K") && t.contains("integrity:"))
    }
}
