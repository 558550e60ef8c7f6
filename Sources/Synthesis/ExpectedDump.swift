/// What `OUT/expected.json` holds: for every capture the generator wrote, what a correct reader
/// must report (docs/capture-synth.md, "expected.json"). Paths are relative to the dump root.
public struct ExpectedDump: Codable, Sendable, Equatable {
    /// `exhibit-capture-synth/1`.
    public var format: String
    public var seed: UInt64
    public var stills: Int
    public var videos: Int
    public var videoSeconds: Double
    /// The fault names selected (each gave its own capture).
    public var faults: [String]
    /// Anchor files: `trust/signer-root.pem` (signer CA root), `trust/tsa-root.pem` (TSA root).
    public var signerRoot: String
    public var tsaRoot: String
    public var devices: [Device]
    public var captures: [Capture]
    /// What differs between two runs with the same seed.
    public var nonRepeatable: [String]

    public struct Device: Codable, Sendable, Equatable {
        public var name: String
        public var keyFingerprint: String
        /// `ca` (root → intermediate → leaf; trusted with `signerRoot`) or `self-signed` (untrusted).
        public var issuance: String
        public var model: String
        public var subject: String
    }

    public struct Capture: Codable, Sendable, Equatable {
        /// Unique in the dump: the capture folder's name.
        public var id: String
        /// The capture folder, e.g. `captures/<id>`.
        public var folder: String
        /// The session UUID signed in the record (two folders share it only for `rewrapped`).
        public var sessionId: String
        public var deliveryFile: String
        /// `still` or `video`.
        public var kind: String
        /// Fault names applied to this capture (empty = clean; at most one unless documented).
        public var faults: [String]
        /// Every file written for this capture, relative, sorted bytewise (symlinks included).
        public var files: [String]
        public var device: String?
        public var keyFingerprint: String?
        /// `intact`, `tampered`, `unsigned`, `malformed`.
        public var integrity: String
        /// Given `signerRoot` as the only signer anchor; nil when there is no readable signature.
        public var trust: String?
        /// The C2PA failure codes (spec strings), sorted, as our validator and c2pa-rs report them.
        public var failureCodes: [String]
        /// `validated` (token present; trusted with `tsaRoot`) or `absent`.
        public var timestamp: String
        /// SHA-256 of the active claim's bytes (the record id); nil when unsigned or malformed.
        public var claimSHA256: String?
        /// For `rewrapped`: the capture whose claim this one carries unchanged.
        public var sameClaimAs: String?
        public var appVersion: String?
        public var captureTime: String?
        /// `year` … `exact-ms`.
        public var timeRung: String?
        /// One per sink the record states (audio, sensors, ring, depth, second-view); empty without a record.
        public var sidecars: [Sidecar]
        public var unreferenced: [String]
        public var bundles: [Bundle]
        public var streamedChunks: StreamedChunks?
        public var secondView: SecondView?
    }

    public struct Sidecar: Codable, Sendable, Equatable {
        /// `audio`, `sensors`, `ring`, `depth`, `second-view`.
        public var sink: String
        /// `verified`, `mismatch`, `missing`, `uncommitted`, `failed`, `never-recorded`.
        public var state: String
        public var committedSha256: String?
        /// The local file or folder examined, relative to the dump root; nil when none is mapped.
        public var file: String?
        public var recordedPath: String?
        /// `PathFinding` codes for the recorded path (`path-parent-traversal`, …).
        public var pathFindings: [String]
        /// `symlink`, `symlink-escapes-dump`, … or nil.
        public var note: String?

        public init(sink: String, state: String, committedSha256: String?, file: String?, recordedPath: String?,
                    pathFindings: [String], note: String?) {
            self.sink = sink
            self.state = state
            self.committedSha256 = committedSha256
            self.file = file
            self.recordedPath = recordedPath
            self.pathFindings = pathFindings
            self.note = note
        }
    }

    public struct Bundle: Codable, Sendable, Equatable {
        public var file: String
        /// The profile the bundle states ("" when it is not a readable bundle).
        public var profile: String
        /// `verified` or `failed`.
        public var result: String
        /// The distinct failure labels, sorted.
        public var failureLabels: [String]
        public var openedLeaves: Int
        public var withheldCount: Int
    }

    public struct StreamedChunks: Codable, Sendable, Equatable {
        public var root: String
        public var chunkSize: Int
        public var videoChunks: Int
        public var audioChunks: Int
        /// The simulated global completion order used: one track label (`video`/`audio`) per leaf.
        public var order: [String]
        /// Simulated completion time of each leaf, seconds, in `order` (docs/capture-format.md §7).
        public var completionTimes: [Double]
    }

    public struct SecondView: Codable, Sendable, Equatable {
        /// Horizontal shift of the second view at its own raster (pixels): a scene point at x in
        /// the delivery still is at x − disparityPx in `second-view.jpg`.
        public var disparityPx: Int
        public var imageWidth: Int
        public var imageHeight: Int
        /// The same shift at the parallax card's 96 × 64 raster.
        public var disparityAt96: Double
    }
}
