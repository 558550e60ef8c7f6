import Ground

/// Why one record could not be analysed (it stays `pending`; the others go on). A blob the
/// store holds but whose bytes no longer match their ID fails with the store's own error
/// (`cas.chunk.damaged`, `cas.blob.mismatch`, `s3.integrity.mismatch`).
public enum AnalysisError: Error, Equatable, Sendable, CustomStringConvertible, NamedError {
    /// A blob the record's report lists is not in the blob store.
    case blobMissing(ContentID)
    /// The record's stored report does not decode as a verification report.
    case reportUnreadable(recordId: ContentID, reason: String)

    public var code: String {
        switch self {
        case .blobMissing: StatusCode.analysisBlobMissing
        case .reportUnreadable: StatusCode.analysisReportUnreadable
        }
    }

    public var statusCode: String { code }

    public var description: String {
        switch self {
        case .blobMissing(let id): "\(code): blob \(id) is not in the blob store"
        case .reportUnreadable(let id, let r): "\(code): record \(id): stored report does not decode: \(r)"
        }
    }
}
