/// Whether a record's media analyses (media facts, parallax, streamed-chunk recomputation,
/// thumbnail; docs/ingest.md "Media analyses") have been made. Raw values are the words of the
/// record's `analyses.state`, the `idx.byAnalyses` index, `query --analyses` and `show`.
public enum AnalysisState: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    /// Committed by `ingest --defer-media`: the report has no media facts, parallax or chunk
    /// recomputation yet and the record no thumbnail; `analyze` (or `export`) makes them.
    case pending
    /// Made, by the tool and libraries the record names (default `ingest`, or `analyze`).
    case done
}

extension AnalysisState: CustomStringConvertible { public var description: String { rawValue } }
