/// The evidence sinks a capture record states (docs/capture-format.md §4), with the names
/// reports, queries and exports use.
public enum SidecarSink: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable, Comparable {
    case audio, sensors, ring, depth
    case secondView = "second-view"

    /// Bytewise order of the names (`audio` < `depth` < `ring` < `second-view` < `sensors`),
    /// the order sorted JSON objects and listings use.
    public static func < (a: SidecarSink, b: SidecarSink) -> Bool { a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8) }
}

/// What a reader concludes about one sink (docs/verify.md, "Sidecar states").
public enum SidecarState: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    /// The committed digest equals the digest of the bytes found.
    case verified
    /// Committed digest ≠ bytes found.
    case mismatch
    /// Committed, but no readable regular file was found.
    case missing
    /// A path with no digest: never assumed to match.
    case uncommitted
    /// The record says `null`: enabled but failed at capture.
    case failed
    /// The record says `never-recorded`.
    case neverRecorded = "never-recorded"

    /// `mismatch` and `missing`: the states that make a capture need attention.
    public var needsAttention: Bool { self == .mismatch || self == .missing }
}

extension SidecarState {
    /// How much a state says about the evidence, for rolling several copies of one sink into
    /// the record's state: `mismatch` > `missing` > `failed` > `uncommitted` > `never-recorded`
    /// > `verified`.
    public var severity: Int {
        switch self {
        case .verified: 0
        case .neverRecorded: 1
        case .uncommitted: 2
        case .failed: 3
        case .missing: 4
        case .mismatch: 5
        }
    }
}

/// What a stored or reported file is to its capture (`files[].role`).
public enum FileRole: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    /// The delivery file (the signed photo or video).
    case media
    /// A further delivery-file variant, in an export.
    case mediaVariant = "media-variant"
    case audio, sensors, depth
    case secondView = "second-view"
    /// A frame of the ring folder.
    case ringFrame = "ring-frame"
    /// A disclosure bundle.
    case bundle
    /// A file of `evidence/` no sink names.
    case unreferenced
    /// A file a sink names that is none of the above (kept for older records).
    case evidence

    /// The role of the file a sink names (the ring names a folder: its frames are `ring-frame`).
    public init(sink: SidecarSink) {
        switch sink {
        case .audio: self = .audio
        case .sensors: self = .sensors
        case .depth: self = .depth
        case .secondView: self = .secondView
        case .ring: self = .ringFrame
        }
    }
}

// Interpolated into text (`"sidecar \(sink) \(state)"`), a value prints its report word,
// never its Swift case name (`never-recorded`, not `neverRecorded`).
extension SidecarSink: CustomStringConvertible { public var description: String { rawValue } }
extension SidecarState: CustomStringConvertible { public var description: String { rawValue } }
extension FileRole: CustomStringConvertible { public var description: String { rawValue } }
