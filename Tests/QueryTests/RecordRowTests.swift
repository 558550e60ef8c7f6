import Foundation
import Ground
import Query
import TestLiterals
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
        #expect(row.csvFields == [r.recordId.hex, "still", "intact", "", "", "2026-11", "2026-12-01T00:00:00Z",
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

/// The typed record encodes exactly as the string-typed one did: the stored body, `show
/// --json` and `query --format json` are the same bytes (IDs as lowercase hex, vocabularies as
/// their words, the sidecar map as an object).
@Suite struct RecordEncodingTests {
    @Test func bodyJSONIsTheStringJSONOfBefore() throws {
        let r = record(3, trust: "untrusted", time: "2026-11", sidecars: ["second-view": "never-recorded", "audio": "mismatch"])
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let text = String(decoding: try e.encode(r), as: UTF8.self)
        let variant = hexID(3, salt: 77).hex, file = hexID(3, salt: 99).hex
        let report = Data("{\"record\":3}".utf8).base64EncodedString()
        let want = #"{"captureTime":"2026-11","failureCodes":[],"files":[{"blobId":"\#(file)","relativePath":"audio.m4a","role":"audio","size":5}],"#
            + #""ingestTime":"2026-12-01T00:00:00Z","integrity":"intact","keyFingerprint":"\#(hexID(1000).hex)","kind":"still","#
            + #""recordId":"\#(hexID(3).hex)","reportJSON":"\#(report)","sidecars":{"audio":"mismatch","second-view":"never-recorded"},"#
            + #""trust":"untrusted","variants":[{"blobId":"\#(variant)","firstIngested":"2026-12-01T00:00:00Z","size":100,"sourcePaths":["dump\/3-0.jpg"]}]}"#
        #expect(text == want)
        #expect(try JSONDecoder().decode(IndexedRecord.self, from: Data(want.utf8)) == r)
        // A stored body with a value outside a vocabulary, or a non-hex ID, does not decode.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IndexedRecord.self, from: Data(want.replacingOccurrences(of: "\"intact\"", with: "\"real\"").utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IndexedRecord.self, from: Data(want.replacingOccurrences(of: hexID(3).hex, with: hexID(3).uppercased()).utf8))
        }
    }
}
