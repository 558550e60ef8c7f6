import Foundation
import Ground
import Query

/// One record analysed by a worker, waiting for the writer: the record as it was read, the
/// analysed report's JSON and the thumbnail (its entry and JPEG), or why there is nothing to
/// commit.
struct PreparedAnalysis: Sendable {
    var recordId: ContentID
    /// The record as the worker read it; the writer commits only onto this very version.
    var basis: IndexedRecord?
    var reportJSON: Data?
    var thumbnail: DerivedBlob?
    var thumbnailJPEG: [UInt8]?
    /// The blobs the analyses read (the report's media files and the thumbnail's source).
    var analysedBlobs: [ContentID] = []
    var mediaFiles = 0
    var mediaErrors = 0
    /// What the analyses found, for the custody event's detail.
    var summary = ""
    var skipped = false
    var error: String?

    static func skipped(_ id: ContentID) -> PreparedAnalysis {
        PreparedAnalysis(recordId: id, skipped: true)
    }

    static func failed(_ id: ContentID, _ error: any Error) -> PreparedAnalysis {
        PreparedAnalysis(recordId: id, error: "\(error)")
    }
}
