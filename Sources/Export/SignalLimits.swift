import Ground

/// For each signal the report shows, what it bounds and what it does not — condensed from the
/// capture app's own INTEGRITY.md (the seed). Every signal is self-reported by the device and
/// signed into the record; none is a verdict about the scene, and the report renders none.
public enum SignalLimits {
    public struct Entry: Sendable, Equatable {
        public var signal: String
        public var bounds: String
        public var doesNotBound: String
    }

    public static let all: [Entry] = [
        Entry(signal: "Claim signature and hard binding",
              bounds: "The COSE signature covers the claim; the claim hashes every assertion; the media hash covers the file bytes outside the declared exclusions. A flipped byte inside these commitments shows as tampered.",
              doesNotBound: "Container framing (JUMBF/APP11 box headers, labels, the COSE pad) is outside the signature and can change without changing any asserted fact. A compromised device can sign anything it fabricates."),
        Entry(signal: "Signer trust",
              bounds: "Whether the signing certificate chains to an anchor the archive trusts, as of the verification time.",
              doesNotBound: "Trust in an anchor is a decision made outside this report; a trusted key on a compromised device still signs what the device says."),
        Entry(signal: "Signed pose trace (plot)",
              bounds: "The device committed, under signature, this gyroscope window around the shutter. A person can compare it with the motion seen in the footage.",
              doesNotBound: "There is no automated verdict from the trace. A replayed scene with matching phone motion can produce it; a tripod or distant scene legitimately shows little motion (absence of motion is evidence of nothing); a compromised device can sign a fabricated trace."),
        Entry(signal: "Shutter-to-signature latency",
              bounds: "The milliseconds between shutter and signature: bytes altered after capture but before sealing would have to fit in that signed gap — a bound against an honest device with a tampered pipeline.",
              doesNotBound: "Against a compromised operating system the number is whatever the device reports."),
        Entry(signal: "Sensor-frame timing regularity (interval CV)",
              bounds: "A consistency figure for the motion feed during capture, committed under signature.",
              doesNotBound: "It is not detection: a good replay mimics irregularity, and no threshold on it feeds any verdict."),
        Entry(signal: "Streamed capture commitment",
              bounds: "A Merkle root over 1 MiB elementary-stream chunks fixed while recording, narrowing the capture-to-signature gap.",
              doesNotBound: "It cannot be recomputed from the delivery file alone (the interleaving order is not recorded); truncation and tamper detection rest on the BMFF hard binding, not on this root."),
        Entry(signal: "Evidence files (audio master, sensor log, ring frames) and their digests",
              bounds: "Each collected sink's digest is committed under the record signature, so the bytes in this bag can be checked against what the device sealed (verified / mismatch / missing). A sink without a digest is reported as uncommitted.",
              doesNotBound: "The digest binds bytes to the record; it says nothing about whether those bytes describe the world truthfully. Location fixes are fused platform fixes (no raw GNSS); the mains frequency is region-derived; no analysis of these files is implied."),
        Entry(signal: "Second view (parallax)",
              bounds: "The committed second camera view allows deterministic geometry: matched-patch count and median disparity between two views with a known baseline.",
              doesNotBound: "No error rates are published; integer-pixel matching has about ±1 px noise; a motion rig replaying a screen can produce parallax; past a few metres the answer is insufficient."),
        Entry(signal: "Depth map",
              bounds: "The dual-camera depth map's digest is committed in the record (or a sealed statement that none was captured).",
              doesNotBound: "Like every signal here, it is what the device stated; a compromised device can commit fabricated depth."),
        Entry(signal: "Selective-disclosure bundles",
              bounds: "Each opened claim is recomputed and proven against the signed context root; withheld claims are counted, never-recorded ones declared at commit time.",
              doesNotBound: "The claims are self-reported: the tree proves the device stated these values at commit time and that the bundle was not altered since — not that the values were true."),
    ]
}
