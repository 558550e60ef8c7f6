import Foundation
import Ground

/// One line of `query` output: the fields of a record that the table, CSV and JSON forms
/// show. `indeterminate` marks a record whose capture time is coarser than the time filter.
public struct RecordRow: Codable, Sendable, Equatable {
    public var recordId: ContentID
    public var kind: MediaKind
    public var integrity: Integrity
    public var trust: Trust?
    public var keyFingerprint: ContentID?
    public var captureTime: String?
    public var ingestTime: String
    /// Sink → state, as in the record.
    public var sidecars: [SidecarSink: SidecarState]
    public var indeterminate: Bool
    /// The C2PA failure codes of the record's report (absent in rows written before it existed).
    public var failureCodes: [String]?
    /// `pending` or `done`: the record's media analyses (absent when the record has no state:
    /// `--no-media`, or made before analyses had one). JSON only; no CSV column.
    public var analyses: AnalysisState?

    public init(_ r: IndexedRecord, indeterminate: Bool) {
        recordId = r.recordId
        kind = r.kind
        integrity = r.integrity
        trust = r.trust
        keyFingerprint = r.keyFingerprint
        captureTime = r.captureTime
        ingestTime = r.ingestTime
        sidecars = r.sidecars
        self.indeterminate = indeterminate
        failureCodes = r.failureCodes
        analyses = r.analyses?.state
    }

    /// Sidecar states as `sink=state` pairs sorted by sink, joined by `;` (empty when none).
    public var sidecarSummary: String {
        sidecars.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value.rawValue)" }.joined(separator: ";")
    }

    /// The sinks that have a CSV column of their own (holding that sink's state, empty when
    /// the record has none); any other sink is in the `sidecars` column only.
    public static let csvSinks: [SidecarSink] = [.audio, .sensors, .ring, .depth, .secondView]

    /// The CSV columns, in order: the nine first ones as they always were, then one column per
    /// sink (its state) and `failureCodes` (`;`-separated), so a spreadsheet can filter on each.
    public static let csvHeader = ["recordId", "kind", "integrity", "trust", "keyFingerprint", "captureTime",
                                   "ingestTime", "sidecars", "indeterminate"] + csvSinks.map(\.rawValue) + ["failureCodes"]

    public var csvFields: [String] {
        let first: [String] = [recordId.hex, kind.rawValue, integrity.rawValue, trust?.rawValue ?? "", keyFingerprint?.hex ?? "",
                               captureTime ?? "", ingestTime, sidecarSummary, indeterminate ? "true" : "false"]
        let perSink: [String] = Self.csvSinks.map { sidecars[$0]?.rawValue ?? "" }
        return first + perSink + [(failureCodes ?? []).joined(separator: ";")]
    }

    /// One JSON object (sorted keys; absent optionals are omitted), on one line.
    public func jsonLine() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try e.encode(self), as: UTF8.self)
    }
}

/// RFC 4180 CSV: fields holding a comma, quote, CR or LF are quoted, quotes doubled; CRLF
/// line ends are not used (LF), as most tools accept.
public enum CSV {
    public static func line(_ fields: [String]) -> String {
        fields.map { f in
            f.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + f.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : f
        }.joined(separator: ",")
    }

    /// Parses CSV text back into rows (the inverse of `line`, for tests and tools).
    public static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\n" || c == "\r\n" {
                row.append(field); rows.append(row); row = []; field = ""
            } else if c != "\r" {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
