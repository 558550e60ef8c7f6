import Foundation
import Ground
import Media

/// Everything `verify` found about one capture: the issue-4 JSON object, one per capture.
///
/// This is a contract: `exhibit-archive verify --json` prints it, ingest stores it (as JSON
/// inside the record), `show` and the custody export render it. Field names are the public
/// names users' scripts read; add fields, never rename them. Facts only — no field says the
/// capture is real or fake.
public struct CaptureReport: Codable, Sendable, Equatable {
    /// The delivery file examined (as given / as found in the dump).
    public var path: String
    /// SHA-256 of the delivery file's bytes (JSON: lowercase hex); nil when it could not be read.
    public var sha256: ContentID?
    /// Size of the delivery file in bytes.
    public var size: UInt64?
    /// SHA-256 of the active claim's exact bytes; the file's SHA-256 when unsigned or
    /// malformed; nil only when the file could not be read at all.
    public var recordId: ContentID?
    /// `still`, `video`, or `unknown` (from the record assertion, else the container).
    public var kind: MediaKind
    /// `intact`, `tampered`, `unsigned`, `malformed`.
    public var integrity: C2PAReport.Integrity
    public var signer: Signer?
    public var timestamp: C2PAReport.Timestamp
    /// The signed capture time at its finest known rung (prefix of `YYYY-MM-DDTHH:MM:SS.sssZ`).
    public var captureTime: String?
    /// `year`, `month`, `day`, `hour`, `minute`, `second`, `exact-ms`.
    public var timeRung: String?
    public var statusCodes: StatusCodes
    /// One entry per sink the record names (audio, sensors, ring, depth, second-view).
    public var sidecars: [Sidecar]
    /// Files in the capture's evidence folder that no sink names (paths relative to `evidence/`).
    public var unreferenced: [String]
    public var disclosure: [Disclosure]
    public var streamedChunks: StreamedChunks?
    /// The app's signed context, reported as facts; nil when there is no record assertion.
    public var context: Context?
    /// What these checks cannot bound (from the seed), always present.
    public var limits: [String]
    /// Every file of the capture that was read, with its digest (delivery file, sidecars,
    /// ring frames, bundles): what ingest stores.
    public var files: [File]
    /// Set when the item could not be examined (unreadable file, I/O error).
    public var error: ItemError?

    // Added in session 2 (optional; older JSON decodes without them).
    /// Container read: `jpeg`, `bmff`, or nil.
    public var container: String?
    /// Label of the active manifest.
    public var activeManifest: String?
    /// Why the manifest store was absent (unsigned) or unreadable (malformed), from the validator.
    public var c2paReason: String?
    /// The record assertion `org.exhibit.capture-metadata`: `present`, `absent` or `malformed`.
    public var recordAssertion: String?
    /// The signed `camera.contextTree` assertion: `present`, `absent` or `malformed`.
    public var contextTree: String?
    /// Why the record or context tree assertion could not be read (`record.*` codes).
    public var recordError: ItemError?
    /// Ring folder entries that are not frames (symlinks, folders, bad names): not in the
    /// recomputed listing.
    public var ringRejected: [String]?
    // Added by issue 7 (module Media, docs/media.md; optional, older JSON decodes without them).
    /// Container and stream facts of the delivery file, the audio master and the ring frames.
    public var media: [MediaFile]?
    /// The parallax measurement recomputed from a still and its committed second view.
    public var parallax: ParallaxMeasurement?

    public struct Signer: Codable, Sendable, Equatable {
        public var keyFingerprint: ContentID
        public var subject: String
        public var issuer: String
        public var algorithm: String?
        /// `trusted` or `untrusted`.
        public var trust: C2PAReport.Trust
        public init(keyFingerprint: ContentID, subject: String, issuer: String, algorithm: String?, trust: C2PAReport.Trust) {
            self.keyFingerprint = keyFingerprint
            self.subject = subject
            self.issuer = issuer
            self.algorithm = algorithm
            self.trust = trust
        }
    }

    public struct StatusCodes: Codable, Sendable, Equatable {
        public var success: [C2PAReport.Status]
        public var informational: [C2PAReport.Status]
        public var failure: [C2PAReport.Status]
        public init(success: [C2PAReport.Status] = [], informational: [C2PAReport.Status] = [], failure: [C2PAReport.Status] = []) {
            self.success = success
            self.informational = informational
            self.failure = failure
        }
    }

    public struct Sidecar: Codable, Sendable, Equatable {
        /// `audio`, `sensors`, `ring`, `depth`, `second-view`.
        public var sink: SidecarSink
        /// `verified`, `mismatch`, `missing`, `uncommitted`, `failed`, `never-recorded`.
        public var state: SidecarState
        public var committedSha256: ContentID?
        public var actualSha256: ContentID?
        /// The local file or folder examined, relative to the dump root when inside it.
        public var file: String?
        /// The path as the device recorded it (never opened).
        public var recordedPath: String?
        /// Findings about the recorded path (`dot-dot`, `absolute`, …) or the local entry
        /// (`symlink`, `symlink-escapes-dump`, `not-a-regular-file`, …).
        public var notes: [String]
        public init(sink: SidecarSink, state: SidecarState, committedSha256: ContentID?, actualSha256: ContentID?, file: String?,
                    recordedPath: String?, notes: [String]) {
            self.sink = sink
            self.state = state
            self.committedSha256 = committedSha256
            self.actualSha256 = actualSha256
            self.file = file
            self.recordedPath = recordedPath
            self.notes = notes
        }
    }

    public struct Disclosure: Codable, Sendable, Equatable {
        public var file: String
        /// The profile the bundle states (`sealed`, `short`, `full`, `custom`), or "" if unreadable.
        public var profile: String
        /// `verified` or `failed`.
        public var result: String
        /// Every named failure (`leaf-mismatch`, `root-mismatch`, …), with claim id and detail.
        public var failures: [Failure]
        public var openedLeaves: Int
        public var withheldCount: Int

        public struct Failure: Codable, Sendable, Equatable {
            public var label: String
            public var claimId: String?
            public var detail: String
            public init(label: String, claimId: String?, detail: String) {
                self.label = label
                self.claimId = claimId
                self.detail = detail
            }
        }
        public init(file: String, profile: String, result: String, failures: [Failure], openedLeaves: Int, withheldCount: Int) {
            self.file = file
            self.profile = profile
            self.result = result
            self.failures = failures
            self.openedLeaves = openedLeaves
            self.withheldCount = withheldCount
        }
    }

    public struct StreamedChunks: Codable, Sendable, Equatable {
        /// `present` (a commitment is signed) or `absent`; recomputation (issue 7) adds
        /// `recomputed` / `not-recomputable` in `recomputation`.
        public var state: String
        public var root: ContentID?
        public var chunkSize: Int?
        public var videoChunks: Int?
        public var audioChunks: Int?
        /// The commitment recomputed from the delivery file (issue 7): `recomputed`,
        /// `not-recomputable` or `absent`, with the order found and the orders tried. Nil for stills.
        public var recomputation: ChunkRecomputation?
        public init(state: String, root: ContentID?, chunkSize: Int?, videoChunks: Int?, audioChunks: Int?) {
            self.state = state
            self.root = root
            self.chunkSize = chunkSize
            self.videoChunks = videoChunks
            self.audioChunks = audioChunks
        }
    }

    /// The app's own signed statements, as facts. Every field is optional: absent means the
    /// record does not state it.
    public struct Context: Codable, Sendable, Equatable {
        public var appVersion: String?
        public var captureToSignatureMs: Int?
        public var sensorIntervalCv: Double?
        public var poseTrace: PoseTraceSummary?
        public var mainsHz: Int?
        /// The literal note the record carries beside mainsHz (`region-derived`).
        public var mainsHzNote: String?
        public var exposureDurationS: Double?
        public var lens: String?
        public var depth: String?
        public var secondViewBaselineMm: Double?
        public var timeZone: String?
        public init() {}
    }

    public struct PoseTraceSummary: Codable, Sendable, Equatable {
        public var count: Int
        public var rateHz: Double
        public var startOffsetMs: Int
        public init(count: Int, rateHz: Double, startOffsetMs: Int) {
            self.count = count
            self.rateHz = rateHz
            self.startOffsetMs = startOffsetMs
        }
    }

    public struct File: Codable, Sendable, Equatable {
        /// `media`, `audio`, `sensors`, `ring-frame`, `depth`, `second-view`, `bundle`,
        /// `unreferenced`.
        public var role: FileRole
        /// Absolute (or as-given) local path.
        public var path: String
        /// Path relative to the capture folder (what a bag stores under the record).
        public var relativePath: String
        public var sha256: ContentID
        public var size: UInt64
        public init(role: FileRole, path: String, relativePath: String, sha256: ContentID, size: UInt64) {
            self.role = role
            self.path = path
            self.relativePath = relativePath
            self.sha256 = sha256
            self.size = size
        }
    }

    public struct ItemError: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public init(path: String, kind: MediaKind, integrity: C2PAReport.Integrity, timestamp: C2PAReport.Timestamp) {
        self.path = path
        self.kind = kind
        self.integrity = integrity
        self.timestamp = timestamp
        self.statusCodes = StatusCodes()
        self.sidecars = []
        self.unreferenced = []
        self.disclosure = []
        self.limits = []
        self.files = []
    }

    /// True when the capture counts as a problem for exit status: not intact, or a sidecar
    /// `mismatch` / `missing`.
    public var needsAttention: Bool {
        integrity != .intact || sidecars.contains { $0.state.needsAttention }
    }
}
