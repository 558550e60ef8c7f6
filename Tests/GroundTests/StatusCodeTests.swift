import Foundation
import Ground
import Testing

/// The one table of status codes: every constant a distinct, well-formed code, and no code
/// spelled as a literal (or built by interpolation) anywhere else in the sources.
@Suite struct StatusCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The table's files: the project's codes and the validator's (C2PA, CAWG and their readers).
    static let tableFiles = ["Ground/StatusCode.swift", "Ground/StatusCode+Validation.swift", "Ground/StatusCode+Storage.swift"]

    static func table() throws -> [(name: String, code: String)] {
        let text = try tableFiles.map { try String(contentsOf: root.appendingPathComponent("Sources/" + $0), encoding: .utf8) }.joined(separator: "\n")
        let rx = try NSRegularExpression(pattern: #"public static let (\w+) = "([^"]+)""#)
        return rx.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
            (String(text[Range(m.range(at: 1), in: text)!]), String(text[Range(m.range(at: 2), in: text)!]))
        }
    }

    @Test func everyCodeIsDistinctAndNamedAfterItself() throws {
        let t = try Self.table()
        #expect(t.count > 300)
        #expect(Set(t.map(\.code)).count == t.count, "a code is listed twice")
        #expect(Set(t.map(\.name)).count == t.count)
        for (name, code) in t {
            let words = code.split(whereSeparator: { ".-_".contains($0) })
            let camel = words.enumerated().map { i, w in i == 0 ? String(w) : w.prefix(1).uppercased() + w.dropFirst() }.joined()
            #expect(name == camel, "\(name) should be \(camel) for \(code)")
        }
        #expect(StatusCode.ioSourceChanged == "io.sourceChanged" && StatusCode.indexRecordDamaged == "index.record.damaged")
    }

    /// A literal equal to a table code anywhere but the table is a second spelling of it.
    @Test func noCodeIsSpelledOutsideTheTable() throws {
        let codes = Set(try Self.table().map(\.code))
        let sources = Self.root.appendingPathComponent("Sources")
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        let rx = try NSRegularExpression(pattern: #""([A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)+)""#)
        for f in files where !Self.tableFiles.contains(f) {
            let text = try String(contentsOf: sources.appendingPathComponent(f), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
                for m in rx.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                    let s = String(code[Range(m.range(at: 1), in: code)!])
                    if codes.contains(s) { offenders.append("\(f):\(n + 1): \(s)") }
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
