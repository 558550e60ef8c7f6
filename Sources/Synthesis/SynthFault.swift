import CaptureFormat
import Foundation
import Ground

/// One fault class of issue 3. Each selected fault gets its own extra capture (faults are not
/// stacked), so a capture's expectations follow from one named change.
public enum SynthFault: Hashable, Sendable, CustomStringConvertible {
    // C2PA manifest and media (stills unless named video-).
    case mediaFlip, claimFlip, signatureFlip, assertionFlip, malleableFlip, rewrapped
    case unsigned, truncated, garbageManifest, videoMediaFlip, videoMalleableFlip
    // Evidence.
    case sidecarChanged, sidecarMissing, preDigestRecord, sinkFailed, sinkDisabled
    case ringFrameAdded, ringFrameRemoved, ringFrameRenamed
    case pathParentTraversal, pathOutside, symlinkEscape
    // Disclosure bundles: one tampered bundle whose primary failure is this label.
    case bundle(BundleFailure.Label)

    public static let allCases: [SynthFault] = [
        .mediaFlip, .claimFlip, .signatureFlip, .assertionFlip, .malleableFlip, .rewrapped,
        .unsigned, .truncated, .garbageManifest, .videoMediaFlip, .videoMalleableFlip,
        .sidecarChanged, .sidecarMissing, .preDigestRecord, .sinkFailed, .sinkDisabled,
        .ringFrameAdded, .ringFrameRemoved, .ringFrameRenamed,
        .pathParentTraversal, .pathOutside, .symlinkEscape,
    ] + BundleFailure.Label.allCases.map { .bundle($0) }

    public var name: String {
        switch self {
        case .mediaFlip: "media-flip"
        case .claimFlip: "claim-flip"
        case .signatureFlip: "signature-flip"
        case .assertionFlip: "assertion-flip"
        case .malleableFlip: "malleable-flip"
        case .rewrapped: "rewrapped"
        case .unsigned: "unsigned"
        case .truncated: "truncated"
        case .garbageManifest: "garbage-manifest"
        case .videoMediaFlip: "video-media-flip"
        case .videoMalleableFlip: "video-malleable-flip"
        case .sidecarChanged: "sidecar-changed"
        case .sidecarMissing: "sidecar-missing"
        case .preDigestRecord: "pre-0.25"
        case .sinkFailed: "sink-failed"
        case .sinkDisabled: "sink-disabled"
        case .ringFrameAdded: "ring-frame-added"
        case .ringFrameRemoved: "ring-frame-removed"
        case .ringFrameRenamed: "ring-frame-renamed"
        case .pathParentTraversal: "path-parent-traversal"
        case .pathOutside: "path-outside"
        case .symlinkEscape: "symlink-escape"
        case .bundle(let l): "bundle-" + l.rawValue
        }
    }

    public var description: String { name }

    /// What the fault does, for `--help` and the docs.
    public var summary: String {
        switch self {
        case .mediaFlip: "one JPEG scan-data byte flipped outside the manifest"
        case .claimFlip: "one byte of the claim (its instanceID text) flipped"
        case .signatureFlip: "one byte of the COSE signature flipped"
        case .assertionFlip: "one byte inside the c2pa.hash.data assertion flipped"
        case .malleableFlip: "APP11 box-instance field En changed in every segment (must stay intact)"
        case .rewrapped: "a second folder with the same claim re-wrapped with another APP11 En (new file bytes)"
        case .unsigned: "the JPEG without any manifest"
        case .truncated: "the signed JPEG with its last 1000 bytes cut"
        case .garbageManifest: "140 bytes of the manifest store overwritten"
        case .videoMediaFlip: "one mdat byte of a signed MP4 flipped"
        case .videoMalleableFlip: "32 bytes of a signed MP4's COSE pad set to 0x5A (must stay intact)"
        case .sidecarChanged: "audio.caf changed after sealing"
        case .sidecarMissing: "sensors.jsonl deleted"
        case .preDigestRecord: "app 0.24.2 record: paths without digests"
        case .sinkFailed: "rawPcm null (enabled, failed); a partial audio.caf left behind"
        case .sinkDisabled: "sensorLog never-recorded (toggle off)"
        case .ringFrameAdded: "an eighth ring frame added"
        case .ringFrameRemoved: "ring frame frame-p4.jpg removed"
        case .ringFrameRenamed: "ring frame frame-m3.jpg renamed"
        case .pathParentTraversal: "rawPcm recorded path with a .. component"
        case .pathOutside: "rawPcm recorded as /etc/passwd (absolute, outside the app)"
        case .symlinkEscape: "sensors.jsonl is a symlink to /etc/hostname"
        case .bundle(let l): "an extra bundle tampered to fail as \(l.rawValue)"
        }
    }

    public var isVideo: Bool { self == .videoMediaFlip || self == .videoMalleableFlip }

    public init?(name: String) {
        guard let f = SynthFault.allCases.first(where: { $0.name == name }) else { return nil }
        self = f
    }

    /// Parses `none`, `all`, or a comma-separated list of names.
    public static func parseList(_ text: String) throws(SynthError) -> [SynthFault] {
        if text == "none" || text.isEmpty { return [] }
        if text == "all" { return allCases }
        var out: [SynthFault] = []
        for part in text.split(separator: ",") {
            let n = part.trimmingCharacters(in: .whitespaces)
            guard let f = SynthFault(name: n) else { throw SynthError(StatusCode.synthUsage, "unknown fault '\(n)'") }
            if !out.contains(f) { out.append(f) }
        }
        return out
    }
}
