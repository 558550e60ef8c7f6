import Ground
import Verify

/// The file of a capture ingest stages: the walk's (`CaptureWalk`, Verify).
typealias StageFile = WalkedFile

extension Ingestor {
    /// The delivery file and the regular files under the capture folder's `evidence/` and
    /// `disclosure/`, found by a descriptor walk from the dump root (`CaptureWalk`): never
    /// through a symlink, at most `WalkLimits.maxDepth` levels deep. What the walk cannot read
    /// was reported by discovery (`walk.*`); here it is left out, and the verifier reports the
    /// sidecar it misses.
    static func filesToStage(_ c: CaptureLocation, limits: WalkLimits = .standard) -> [StageFile] {
        CaptureWalk(c, limits: limits).files
    }

    /// `filesToStage` with every entry the walk saw (`CaptureWalk.entries`): the snapshot's
    /// listing.
    static func walk(_ c: CaptureLocation, limits: WalkLimits = .standard) -> CaptureWalk {
        CaptureWalk(c, limits: limits)
    }
}
