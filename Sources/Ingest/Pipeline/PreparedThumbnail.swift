import Archive
import Query

/// A worker's thumbnail of a capture's delivery file, waiting for the writer: the derived
/// entry for the record and, when one was made, the JPEG staged in memory.
struct PreparedThumbnail: Sendable {
    var entry: DerivedBlob
    var staged: BlobStage?
}
