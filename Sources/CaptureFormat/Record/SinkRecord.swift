import Ground

/// One evidence sink as the record states it: exactly one of three states.
///
/// CBOR: a text path (collected), CBOR `null` (enabled but failed), or the literal text
/// `never-recorded` (toggle off, not applicable to the media kind, or CaptureKit unavailable).
/// The digest sits beside the path under `<sink>Sha256` (records from 0.25.0 on).
public enum SinkRecord: Hashable, Sendable {
    case collected(path: String, sha256: ContentID?)
    case failed
    case neverRecorded

    public static let neverRecordedText = "never-recorded"

    public var path: String? {
        if case .collected(let p, _) = self { return p }
        return nil
    }

    public var committedDigest: ContentID? {
        if case .collected(_, let d) = self { return d }
        return nil
    }
}

/// The sink states (`SidecarState`, in `Ground`) as the capture format decides them.
extension SidecarState {
    /// What was found on disk for a sink's file (or the ring's recomputed listing digest).
    public enum Found: Hashable, Sendable {
        case absent
        case present(ContentID)
    }

    /// The state of a sink given the record's statement and what the reader found.
    ///
    /// - `failed` / `never-recorded` come from the record alone (a file found anyway is listed
    ///   as unreferenced by the layout check, never matched).
    /// - a path without a digest is `uncommitted` whether or not a file is found.
    /// - a path with a digest is `verified` or `mismatch` by comparison, `missing` without a file.
    public static func evaluate(_ sink: SinkRecord, found: Found) -> SidecarState {
        switch sink {
        case .failed: return .failed
        case .neverRecorded: return .neverRecorded
        case .collected(_, nil): return .uncommitted
        case .collected(_, let committed?):
            switch found {
            case .absent: return .missing
            case .present(let actual): return actual == committed ? .verified : .mismatch
            }
        }
    }
}
