import Ground

/// The capture app's record assertion (label `org.exhibit.capture-metadata`): the signed
/// capture-metadata block of the seed. See docs/capture-format.md §4 for the CBOR layout.
public struct CaptureRecord: Equatable, Sendable {
    public static let assertionLabel = "org.exhibit.capture-metadata"
    public static let recordVersion = 1
    /// The first app version whose records carry sink digests.
    public static let firstVersionWithDigests = AppVersion(major: 0, minor: 25, patch: 0)

    /// `still` or `video` (a record never says `unknown`: decoding refuses it).
    public typealias MediaKind = Ground.MediaKind

    public var appVersion: AppVersion
    public var mediaKind: MediaKind
    public var captureTime: CaptureTime
    public var timeZone: CaptureTimeZone?
    public var captureToSignatureMs: Int
    /// Coefficient of variation of inter-sample intervals; nil when the motion feed was absent.
    public var sensorIntervalCv: Double?
    public var poseTrace: PoseTrace?
    public var streamedChunks: StreamedChunksRecord?
    public var evidence: CaptureEvidence
    public var depth: DepthRecord?
    public var mainsHz: MainsHz?
    public var lens: LensRecord?
    public var secondView: SecondViewRecord?

    public init(appVersion: AppVersion, mediaKind: MediaKind, captureTime: CaptureTime,
                timeZone: CaptureTimeZone? = nil, captureToSignatureMs: Int, sensorIntervalCv: Double?,
                poseTrace: PoseTrace?, streamedChunks: StreamedChunksRecord?, evidence: CaptureEvidence,
                depth: DepthRecord?, mainsHz: MainsHz?, lens: LensRecord?, secondView: SecondViewRecord?) {
        self.appVersion = appVersion
        self.mediaKind = mediaKind
        self.captureTime = captureTime
        self.timeZone = timeZone
        self.captureToSignatureMs = captureToSignatureMs
        self.sensorIntervalCv = sensorIntervalCv
        self.poseTrace = poseTrace
        self.streamedChunks = streamedChunks
        self.evidence = evidence
        self.depth = depth
        self.mainsHz = mainsHz
        self.lens = lens
        self.secondView = secondView
    }

    /// Whether this app version seals sink digests.
    public var carriesDigests: Bool { appVersion >= CaptureRecord.firstVersionWithDigests }

    /// Every sink the reader checks, in report order, with the record's statement about it.
    /// Depth: an absence statement or no depth block reads as never-recorded; the second view
    /// likewise when the record has none.
    public var sinks: [(sink: SidecarSink, record: SinkRecord)] {
        var out: [(SidecarSink, SinkRecord)] = [
            (.audio, evidence.rawPcm), (.sensors, evidence.sensorLog), (.ring, evidence.ringBufferDir),
        ]
        switch depth {
        case .map(let m)?: out.append((.depth, .collected(path: m.path, sha256: m.sha256)))
        case .absent?, nil: out.append((.depth, .neverRecorded))
        }
        if let s = secondView {
            out.append((.secondView, .collected(path: s.path, sha256: s.sha256)))
        } else {
            out.append((.secondView, .neverRecorded))
        }
        return out
    }
}

/// A semantic app version `MAJOR.MINOR.PATCH` (digits only).
public struct AppVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var major: Int, minor: Int, patch: Int

    public init(major: Int, minor: Int, patch: Int) {
        self.major = major; self.minor = minor; self.patch = patch
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var n: [Int] = []
        for p in parts {
            guard !p.isEmpty, p.count <= 9, p.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let v = Int(p) else { return nil }
            n.append(v)
        }
        self.init(major: n[0], minor: n[1], patch: n[2])
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (a: AppVersion, b: AppVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}

/// The device's local zone at capture (informational; `captureTime` is always UTC).
public struct CaptureTimeZone: Hashable, Sendable {
    public var offsetMinutes: Int
    public var identifier: String?
    public init(offsetMinutes: Int, identifier: String?) {
        self.offsetMinutes = offsetMinutes
        self.identifier = identifier
    }
}

/// `context.captureEvidence`: the three file sinks.
public struct CaptureEvidence: Hashable, Sendable {
    public var rawPcm: SinkRecord
    public var sensorLog: SinkRecord
    public var ringBufferDir: SinkRecord
    public init(rawPcm: SinkRecord, sensorLog: SinkRecord, ringBufferDir: SinkRecord) {
        self.rawPcm = rawPcm
        self.sensorLog = sensorLog
        self.ringBufferDir = ringBufferDir
    }
}

/// `context.poseTrace`: a decimated, quantized window of gyroscope and attitude samples.
/// Each sample is `[gx, gy, gz, qw, qx, qy, qz]` as integers; physical value = integer × scale.
public struct PoseTrace: Equatable, Sendable {
    public var rateHz: Double
    /// Offset of the first sample from the shutter, milliseconds (negative = before).
    public var startOffsetMs: Int
    /// rad/s per gyro unit.
    public var gyroScale: Double
    /// Quaternion component per attitude unit.
    public var attitudeScale: Double
    public var samples: [[Int]]
    public var count: Int { samples.count }

    public init(rateHz: Double, startOffsetMs: Int, gyroScale: Double, attitudeScale: Double, samples: [[Int]]) {
        self.rateHz = rateHz
        self.startOffsetMs = startOffsetMs
        self.gyroScale = gyroScale
        self.attitudeScale = attitudeScale
        self.samples = samples
    }
}

/// `context.streamedChunks`: the capture-time commitment. No completion order is recorded.
public struct StreamedChunksRecord: Hashable, Sendable {
    public var chunkSize: Int
    public var root: ContentID
    public var videoChunks: Int
    public var audioChunks: Int
    public init(chunkSize: Int, root: ContentID, videoChunks: Int, audioChunks: Int) {
        self.chunkSize = chunkSize
        self.root = root
        self.videoChunks = videoChunks
        self.audioChunks = audioChunks
    }
}

/// `context.depth`: the depth map's commitment, or a sealed statement of absence.
public enum DepthRecord: Hashable, Sendable {
    case map(DepthMap)
    case absent(reason: String)
}

public struct DepthMap: Hashable, Sendable {
    public var path: String
    public var sha256: ContentID
    /// MIME type of the depth file (`image/png`: 16-bit grayscale, GDepth RangeInverse).
    public var format: String
    public var width: Int
    public var height: Int
    public var near: Double
    public var far: Double
    public var gdepthAssertion: String
    public var collectionHashAssertion: String

    public init(path: String, sha256: ContentID, format: String, width: Int, height: Int,
                near: Double, far: Double, gdepthAssertion: String = "c2pa.depthmap.GDepth",
                collectionHashAssertion: String = "org.exhibit.hash.collection") {
        self.path = path
        self.sha256 = sha256
        self.format = format
        self.width = width
        self.height = height
        self.near = near
        self.far = far
        self.gdepthAssertion = gdepthAssertion
        self.collectionHashAssertion = collectionHashAssertion
    }
}

/// `context.mainsHz`: derived from the device region, never measured.
public struct MainsHz: Hashable, Sendable {
    public static let regionDerivedNote = "region-derived"
    public var hz: Int
    public var note: String
    public var exposureDurationS: Double?
    public init(hz: Int, note: String = MainsHz.regionDerivedNote, exposureDurationS: Double?) {
        self.hz = hz
        self.note = note
        self.exposureDurationS = exposureDurationS
    }
}

/// `context.lens`: present only when the requested lens was really used.
public struct LensRecord: Hashable, Sendable {
    /// `wide`, `ultra-wide` or `telephoto`.
    public var camera: String
    public var focalLengthMm: Double
    public init(camera: String, focalLengthMm: Double) {
        self.camera = camera
        self.focalLengthMm = focalLengthMm
    }
}

/// `context.secondView`: the committed second lens view and its calibration.
public struct SecondViewRecord: Hashable, Sendable {
    public var path: String
    public var sha256: ContentID
    public var camera: String
    public var baselineMm: Double
    public var calibration: Calibration

    public struct Calibration: Hashable, Sendable {
        /// Focal length in pixels at `imageWidth` × `imageHeight` (both views rectified to it).
        public var focalLengthPx: Double
        public var principalPointX: Double
        public var principalPointY: Double
        public var imageWidth: Int
        public var imageHeight: Int
        public init(focalLengthPx: Double, principalPointX: Double, principalPointY: Double, imageWidth: Int, imageHeight: Int) {
            self.focalLengthPx = focalLengthPx
            self.principalPointX = principalPointX
            self.principalPointY = principalPointY
            self.imageWidth = imageWidth
            self.imageHeight = imageHeight
        }
    }

    public init(path: String, sha256: ContentID, camera: String, baselineMm: Double, calibration: Calibration) {
        self.path = path
        self.sha256 = sha256
        self.camera = camera
        self.baselineMm = baselineMm
        self.calibration = calibration
    }
}
