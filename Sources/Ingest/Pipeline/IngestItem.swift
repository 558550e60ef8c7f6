import Foundation
import Ground
import Verify

/// What ingest did with one capture.
public struct IngestItem: Sendable {
    /// `new` (a record entered the archive), `variant` (a known record arrived as other bytes:
    /// a second delivery-file variant, or a known delivery file whose sidecar or evidence files
    /// differ — a sidecar variant, see `IndexedRecord.SidecarVariant`), `present` (already
    /// archived: nothing written, no event), `failed` (could not be stored; the archive is
    /// unchanged for it), `path-added` (already archived, every file and state known, found
    /// under a source path the record did not list: only that path is added to the variant,
    /// with one `ingestion` event).
    public enum Outcome: String, Sendable, Codable, CaseIterable {
        case new, variant, present, failed
        case pathAdded = "path-added"
    }

    /// The delivery file as found.
    public var path: String
    /// `dump-root-name/relative/path`, the source path recorded in the variant.
    public var sourcePath: String
    public var recordId: ContentID?
    public var outcome: Outcome
    /// The verification report (also stored in the record).
    public var report: CaptureReport
    /// Why the item could not be stored (`outcome == .failed`), with a stable code first.
    public var error: String?
    /// Blobs written by this item that were not in the store before.
    public var newBlobs: Int
    /// Bytes read from the capture's files.
    public var bytes: UInt64

    /// Not intact, a sidecar `mismatch`/`missing`, or not stored: exit status 1.
    public var needsAttention: Bool { outcome == .failed || report.needsAttention }
}
