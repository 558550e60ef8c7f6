import Foundation
import Ground
import Query

/// One record of an `analyze` run.
public struct AnalysisResult: Sendable {
    public enum Outcome: String, Sendable, CaseIterable {
        /// Analysed and committed (`analyses = done`, one `metadata extraction` event).
        case analysed
        /// Nothing to do: already done by this tool version (another run got there first),
        /// no analyses state, or no such record.
        case skipped
        /// Could not be analysed (`error`); the record stays as it was.
        case failed
    }

    public var recordId: ContentID
    public var outcome: Outcome
    /// The record as committed (analysed only).
    public var record: IndexedRecord?
    /// Media files measured, and how many of them could not be read.
    public var mediaFiles = 0
    public var mediaErrors = 0
    /// The thumbnail made (`WxH`), or its finding; nil when none was due.
    public var thumbnail: String?
    public var error: String?
}

/// Counts of an `analyze` run.
public struct AnalysisSummary: Sendable {
    public var records = 0
    public var outcomes: [AnalysisResult.Outcome: Int] = [:]
    /// Thumbnail blobs the store did not hold before.
    public var newBlobs = 0
    public var seconds: Double = 0

    mutating func count(_ r: AnalysisResult) {
        records += 1
        outcomes[r.outcome, default: 0] += 1
    }

    public var failed: Int { outcomes[.failed] ?? 0 }
}
