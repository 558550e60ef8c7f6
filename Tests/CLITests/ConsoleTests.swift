import CLI
import Foundation
import Testing

/// Text output cannot forge lines or reach the terminal as control sequences; JSON stays
/// valid; a progress bar is cleared before every line and drawn again after it.
@Suite struct ConsoleTests {
    @Test func controlCharactersAreEscapedInText() {
        let forged = "dump/captures/x\nsidecar audio verified"
        #expect(TerminalText.escape(forged) == "dump/captures/x\\nsidecar audio verified")
        #expect(TerminalText.escape("a\r\tb\u{1b}[2Jc\u{7f}") == "a\\r\\tb\\x1b[2Jc\\x7f")
        #expect(TerminalText.escape("\u{9b}31m \u{2028} \u{202e}txt.exe") == "\\u{009b}31m \\u{2028} \\u{202e}txt.exe")
        #expect(TerminalText.escape("naïve ✓ back\\slash") == "naïve ✓ back\\slash")
        let c = Console.capturing()
        c.out("ingest " + forged)
        c.err("Error: " + forged)
        c.lines("one\ntwo " + "\u{1b}]0;title\u{7}" + "\n")
        #expect(c.capturedOut == "ingest dump/captures/x\\nsidecar audio verified\none\ntwo \\x1b]0;title\\x07\n")
        #expect(c.capturedErr == "Error: dump/captures/x\\nsidecar audio verified\n")
        #expect(c.capturedOut.split(separator: "\n").count == 3)
    }

    @Test func jsonEscapesWhatATerminalWouldActOn() throws {
        let value = "a\nb\u{1b}c\u{7f}d\u{9b}e\u{2028}f\u{202e}g"
        let c = Console.capturing()
        c.json(.object([("path", .string(value))]))
        c.jsonLine(String(decoding: try JSONSerialization.data(withJSONObject: ["path": value]), as: UTF8.self))
        let lines = c.capturedOut.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            #expect(line.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7f...0x9f).contains($0.value) && $0.value != 0x2028 && $0.value != 0x202e })
            let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
            #expect(decoded?["path"] == value)
        }
    }

    @Test func progressBarNeverSharesALineWithOutput() throws {
        let c = Console.capturing(terminal: true)
        let bar = ProgressBar(console: c, items: 3, bytes: 0)
        bar.advance(items: 1)
        c.out("new 3798dd intact")
        Thread.sleep(forTimeInterval: 0.11)
        bar.advance(items: 1)
        c.out("new 4a21ff intact")
        bar.finish()
        c.out("summary")
        let t = c.capturedTranscript
        // Every line printed while the bar is up starts on a cleared row: "\r\e[K" just before it.
        #expect(t.contains("\r\u{1b}[Knew 3798dd intact\n\r[") && t.contains("\r\u{1b}[Knew 4a21ff intact\n\r["), "\(t.debugDescription)")
        #expect(!t.contains("ETA 0:00new") && !t.contains("--:--new"))
        #expect(t.hasSuffix("\r\u{1b}[Ksummary\n"))
        // Nothing drawn when stderr is not a terminal.
        let plain = Console.capturing()
        let quiet = ProgressBar(console: plain, items: 1, bytes: 0)
        quiet.advance(items: 1)
        plain.out("line")
        quiet.finish()
        #expect(plain.capturedTranscript == "line\n")
    }
}
