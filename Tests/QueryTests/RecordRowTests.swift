import Foundation
import Query
import Testing

@Suite struct RecordRowTests {
    @Test func csvRoundTripsAwkwardFields() {
        let fields = ["plain", "with,comma", "with \"quotes\"", "line\nbreak", "", "crlf\r\nend"]
        let text = CSV.line(fields) + "\n" + CSV.line(["a", "b"]) + "\n"
        #expect(CSV.parse(text) == [fields, ["a", "b"]])
        #expect(CSV.line(["a", "b,c"]) == "a,\"b,c\"")
    }

    @Test func rowFieldsAndJSON() throws {
        let r = record(1, trust: nil, key: nil, time: "2026-11", sidecars: ["ring": "uncommitted", "audio": "verified"])
        let row = RecordRow(r, indeterminate: true)
        #expect(row.sidecarSummary == "audio=verified;ring=uncommitted")
        #expect(row.csvFields == [r.recordId, "still", "intact", "", "", "2026-11", "2026-12-01T00:00:00Z",
                                  "audio=verified;ring=uncommitted", "true",
                                  "verified", "", "uncommitted", "", "", ""])   // one column per sink, then failure codes
        #expect(row.csvFields.count == RecordRow.csvHeader.count)
        let line = try row.jsonLine()
        #expect(!line.contains("\n"))
        let decoded = try JSONDecoder().decode(RecordRow.self, from: Data(line.utf8))
        #expect(decoded == row)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["indeterminate"] as? Bool == true)
        #expect(object?["trust"] == nil)
    }
}
