import Ground

/// The state of a record's media analyses (`IndexedRecord.analyses`): `pending` after
/// `ingest --defer-media`, `done` with the tool and library versions that made them (default
/// `ingest`, `analyze`). Absent (nil) on records made by `ingest --no-media` (nothing to
/// analyse later) and on records made before analyses had a state.
public struct RecordAnalyses: Codable, Sendable, Equatable {
    public var state: AnalysisState
    /// What made them, `exhibit-archive <version>` (done only).
    public var tool: String?
    /// Library → version of the libraries the analyses ran on (done only): `libavcodec`,
    /// `libav` (the shared objects loaded), `libjpeg-turbo`.
    public var libraries: [String: String]?
    /// Pending only: the delivery file's path as ingest read it, the name the thumbnail's
    /// decoder is given (as at ingest), dropped once the analyses are done.
    public var deliveryPath: String?

    public init(state: AnalysisState, tool: String? = nil, libraries: [String: String]? = nil, deliveryPath: String? = nil) {
        self.state = state
        self.tool = tool
        self.libraries = libraries
        self.deliveryPath = deliveryPath
    }

    /// Pending, the thumbnail to be decoded under `deliveryPath`.
    public static func pending(deliveryPath: String?) -> RecordAnalyses { RecordAnalyses(state: .pending, deliveryPath: deliveryPath) }
}
