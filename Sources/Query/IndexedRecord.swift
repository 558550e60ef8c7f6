import Crypto
import Foundation
import Ground

/// One archived record as the index stores it: the fields every query filters on, the file
/// variants and blobs that make it up, and the full verification report as opaque JSON.
///
/// This is the contract between Ingest (which writes it) and Query (which stores, indexes and
/// reads it). Query does not depend on Verify: `reportJSON` is the `CaptureReport` encoding,
/// stored apart from the record and content-addressed (`reportId`, docs/query.md).
public struct IndexedRecord: Codable, Sendable, Equatable {
    /// SHA-256 of the active claim's bytes (the file's SHA-256 when unsigned); JSON: lowercase hex.
    public var recordId: ContentID
    /// `still`, `video`, `unknown`.
    public var kind: MediaKind
    /// `intact`, `tampered`, `unsigned`, `malformed`.
    public var integrity: Integrity
    /// `trusted`, `untrusted`; nil when unsigned/malformed.
    public var trust: Trust?
    /// Signing key fingerprint (SHA-256 of SPKI DER); nil when unsigned.
    public var keyFingerprint: ContentID?
    /// Capture time at its finest known rung (prefix of `YYYY-MM-DDTHH:MM:SS.sssZ`).
    public var captureTime: String?
    /// TSA genTime (ISO 8601 UTC) when a timestamp validated or was read.
    public var tsaTime: String?
    /// When this record first entered the archive (ISO 8601 UTC).
    public var ingestTime: String
    /// C2PA failure codes.
    public var failureCodes: [String]
    /// Sink (`audio`, `sensors`, `ring`, `depth`, `second-view`) → state
    /// (`verified`, `mismatch`, `missing`, `uncommitted`, `failed`, `never-recorded`).
    public var sidecars: [SidecarSink: SidecarState]
    /// Every distinct delivery-file variant that carried this record (a malleable re-wrap is a
    /// second variant of the same record).
    public var variants: [Variant]
    /// Every other file stored for this record (sidecars, ring frames, bundles…).
    public var files: [StoredFile]
    /// The latest verification report (`CaptureReport` JSON), exactly the bytes stored.
    public var reportJSON: Data
    /// SHA-256 of `reportJSON`: the ID the index keeps the report under (`idx.reports`) and
    /// the record's stored body names (`RecordBody`).
    public var reportId: ContentID { ContentID(of: reportJSON) }
    /// Blobs made from the evidence (thumbnails), one per variant at most; never evidence.
    /// Absent (nil) in records ingested before derived blobs existed.
    public var derived: [DerivedBlob]? = nil
    /// Second copies of sinks of this capture that differed from the first (see
    /// `SidecarVariant`); `sidecars` already holds their rolled-up states. Absent (nil) when
    /// every copy agreed, and in records ingested before sidecar variants existed.
    public var sidecarVariants: [SidecarVariant]? = nil
    /// Whether the media analyses were made, and by what (`RecordAnalyses`); nil when the
    /// record was made without them (`--no-media`) or before they had a state.
    public var analyses: RecordAnalyses? = nil

    public struct Variant: Codable, Sendable, Equatable {
        /// CAS blob ID (SHA-256) of the delivery file's bytes.
        public var blobId: ContentID
        public var size: UInt64
        /// Every source path this variant was ingested from (`dump-root-name/relative/path`).
        public var sourcePaths: [String]
        public var firstIngested: String
        public init(blobId: ContentID, size: UInt64, sourcePaths: [String], firstIngested: String) {
            self.blobId = blobId
            self.size = size
            self.sourcePaths = sourcePaths
            self.firstIngested = firstIngested
        }
    }

    public struct StoredFile: Codable, Sendable, Equatable {
        /// Same roles as `CaptureReport.File.role`.
        public var role: FileRole
        /// Path relative to the capture folder.
        public var relativePath: String
        public var blobId: ContentID
        public var size: UInt64
        public init(role: FileRole, relativePath: String, blobId: ContentID, size: UInt64) {
            self.role = role
            self.relativePath = relativePath
            self.blobId = blobId
            self.size = size
        }
    }

    public init(recordId: ContentID, kind: MediaKind, integrity: Integrity, trust: Trust?, keyFingerprint: ContentID?,
                captureTime: String?, tsaTime: String?, ingestTime: String, failureCodes: [String],
                sidecars: [SidecarSink: SidecarState], variants: [Variant], files: [StoredFile], reportJSON: Data) {
        self.recordId = recordId
        self.kind = kind
        self.integrity = integrity
        self.trust = trust
        self.keyFingerprint = keyFingerprint
        self.captureTime = captureTime
        self.tsaTime = tsaTime
        self.ingestTime = ingestTime
        self.failureCodes = failureCodes
        self.sidecars = sidecars
        self.variants = variants
        self.files = files
        self.reportJSON = reportJSON
    }
}
