import CaptureFormat

/// What these checks cannot bound, per signal, from the capture app's own page
/// (shared/seed/INTEGRITY.md, "What it misses" / "What these miss"), paraphrased. Each entry
/// starts with the signal it concerns. Reported with every capture: a fact about the checks,
/// not about the capture.
public enum CaptureLimits {
    /// Always reported.
    public static let general: [String] = [
        "all-signals: every signal is self-reported by the capturing device and signed into the record; a compromised device can fabricate any of them",
        "all-signals: no check here is a 'this photo is real' verdict; there is no such verdict",
        "signature: a valid signature binds bytes to a key at a time; it says nothing about whether the bytes describe the world truthfully",
        "malleability: container framing outside the signature (a JPEG's APP11 En; an MP4's uuid version/flags and COSE pad content) can change without changing this report; it carries no asserted fact",
    ]

    public static let poseTrace: [String] = [
        "poseTrace: no automated verdict is derived from the trace; it is evidence a person weighs",
        "poseTrace: replaying a video of a scene while moving the phone to match raises the cost of a fake but does not close it",
        "poseTrace: a static scene (tripod, distant vista) legitimately shows little motion; absence of motion is not evidence of anything",
    ]
    public static let captureToSignature: [String] = [
        "captureToSignatureMs: a real bound against an honest device with a tampered pipeline; a compromised OS reports whatever number it likes",
    ]
    public static let sensorTiming: [String] = [
        "intervalCv: a consistency signal, not detection; a good replay mimics irregularity, and no threshold on it feeds a verdict",
    ]
    public static let streamedChunks: [String] = [
        "streamedChunks: leaves are ordered by the real-time interleaving of the video and audio tracks, which the record does not capture, so the root cannot be recomputed from the delivery file alone; our recomputation infers that order from sample timing with a bounded search, and `not-recomputable` is never a failure; truncation and tamper detection rest on the BMFF hard binding",
    ]
    public static let evidence: [String] = [
        "sidecars: a committed digest binds the bytes to the record; it says nothing about whether those bytes describe the world truthfully",
        "sidecars: a compromised device can stream-hash bytes it fabricated",
        "sidecars: a recorded path says where a file was, not what it held; a sink without a digest is uncommitted and never assumed to match",
        "location: samples are fused CLLocation fixes; no raw GNSS is claimed",
    ]
    public static let mainsHz: [String] = [
        "mainsHz: derived from the device region (note region-derived), not measured; nothing is claimed about flicker",
    ]
    public static let lens: [String] = [
        "lens: selection is best-effort; on fallback to the wide camera no lens claim is recorded",
    ]
    public static let parallax: [String] = [
        "secondView: no error rates are published for parallax; integer-pixel matching leaves about ±1 px noise, and a motion rig replaying a screen can produce genuine-looking parallax",
    ]
    public static let disclosure: [String] = [
        "disclosure: a withheld claim is absent, not encrypted; a bundle opens claims against the signed root and proves nothing beyond the device's own statement",
    ]

    /// The statements that concern the signals this record carries.
    public static func statements(for r: CaptureRecord) -> [String] {
        var out = general + captureToSignature + evidence + disclosure
        if r.poseTrace != nil { out += poseTrace }
        if r.sensorIntervalCv != nil { out += sensorTiming }
        if r.streamedChunks != nil || r.mediaKind == .video { out += streamedChunks }
        if r.mainsHz != nil { out += mainsHz }
        out += lens
        if r.secondView != nil { out += parallax }
        return out
    }
}
