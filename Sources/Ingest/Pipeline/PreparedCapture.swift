import Archive
import Foundation
import Verify

/// A capture verified by a worker, with its files staged in the blob store, waiting for the writer.
struct PreparedCapture: Sendable {
    let location: CaptureLocation
    let sourcePath: String
    let report: CaptureReport
    /// Absolute path → staged blob (the delivery file and every regular file of the capture's
    /// `evidence/` and `disclosure/` folders).
    let staged: [String: BlobStage]
    let bytes: UInt64
    /// The report as stored (`IndexedRecord.encode`), made by the worker when the record was
    /// not in the archive yet; nil otherwise (the writer encodes it only if it needs it).
    var reportJSON: Data? = nil
    /// The delivery file's thumbnail (a new record only), see `Ingestor.thumbnail`.
    var thumbnail: PreparedThumbnail? = nil
    /// True when every staged file equals what the archive already holds for this capture
    /// (`Ingestor.unchangedReport`): `report` is then the stored report, not re-verified, and
    /// the writer stores nothing.
    var unchanged = false
    /// Set when a file changed while the worker staged or verified it (`ingest.sourceChanged`):
    /// the writer stores nothing of the capture and reports it `failed`.
    var failure: IngestError? = nil
    /// Set when the blob store failed while the worker staged (S3 unreachable, credentials
    /// refused, LMDB full): the writer stops the run with it, storing nothing of the capture.
    var storageFailure: (any Error)? = nil

    /// Bytes held in memory (inline-staged files).
    var inlineBytes: Int { staged.values.reduce(0) { $0 + ($1.isInline ? Int($1.size) : 0) } }
}
