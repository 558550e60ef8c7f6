import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground

/// Writes a capture dump — delivery files with real C2PA manifests, evidence sidecars,
/// disclosure bundles, trust anchors — and `expected.json` (docs/capture-synth.md).
///
///     let expected = try DumpSynthesizer(options: SynthOptions(stills: 6, videos: 1)).write(to: "/tmp/dump")
public struct DumpSynthesizer: Sendable {
    public let options: SynthOptions

    public init(options: SynthOptions) {
        self.options = options
    }

    public static let formatName = "exhibit-capture-synth/1"
    public static let signerRootFile = "trust/signer-root.pem"
    public static let tsaRootFile = "trust/tsa-root.pem"
    /// The COSE_Sign1 size every manifest reserves (our choice): constant, so the store length —
    /// and so every byte offset of the file — repeats for a seed although ECDSA signatures do not.
    public static let signatureReserve = 8192

    static let nonRepeatable = [
        "COSE_Sign1 signature bytes (ECDSA P-256 random nonces), hence the signature box, the COSE pad length split and the delivery file's SHA-256",
        "RFC 3161 tokens (the TSA's ECDSA signature); genTime and serial repeat",
        "certificate DER (ECDSA signatures of the CA, intermediate and TSA); keys, subjects and key fingerprints repeat",
        "trust/*.pem (the certificates above)",
    ]

    /// One capture to make.
    struct Plan: Sendable {
        var ordinal: Int
        var kind: CaptureRecord.MediaKind
        var fault: SynthFault?
        /// 0-based index into the rendered stills, or the video index.
        var media: Int
        var device: Int
        var timestamped: Bool
        var coarseTime: Bool
    }

    func plans() -> [Plan] {
        var out: [Plan] = []
        var stillMedia = 0, videoMedia = 0
        let devices = SynthPKI.deviceCount
        for i in 0..<options.stills {
            out.append(Plan(ordinal: out.count, kind: .still, fault: nil, media: stillMedia, device: i % devices,
                            timestamped: i % 3 != 1, coarseTime: i % 9 == 4))
            stillMedia += 1
        }
        for j in 0..<options.videos {
            out.append(Plan(ordinal: out.count, kind: .video, fault: nil, media: videoMedia, device: (j + 1) % devices,
                            timestamped: j % 2 == 0, coarseTime: false))
            videoMedia += 1
        }
        for f in options.faults {
            if f.isVideo {
                out.append(Plan(ordinal: out.count, kind: .video, fault: f, media: videoMedia, device: 0, timestamped: true, coarseTime: false))
                videoMedia += 1
            } else {
                out.append(Plan(ordinal: out.count, kind: .still, fault: f, media: stillMedia, device: 0, timestamped: true, coarseTime: false))
                stillMedia += 1
            }
        }
        return out
    }

    /// Writes the dump into `path` (created; must be empty or absent) and returns what
    /// `expected.json` holds.
    public func write(to path: String) throws -> ExpectedDump {
        guard options.stills >= 0, options.videos >= 0, options.videoSeconds > 0, options.videoSeconds <= 3600 else {
            throw SynthError(StatusCode.synthUsage, "counts must be ≥ 0 and video seconds in (0, 3600]")
        }
        guard SynthOptions.videoMbpsRange.contains(options.videoMbps) else {
            throw SynthError(StatusCode.synthUsage, "video Mb/s must be in \(SynthOptions.videoMbpsRange), not \(options.videoMbps)")
        }
        let fm = FileManager.default
        let root = URL(fileURLWithPath: path).standardizedFileURL.path
        if let entries = try? fm.contentsOfDirectory(atPath: root), !entries.isEmpty {
            throw SynthError(StatusCode.synthIo, "\(root) exists and is not empty")
        }
        let work = root + "/.synth-work"
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/captures", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/trust", withIntermediateDirectories: true)

        let pki = try SynthPKI(seed: options.seed)
        try Data(pki.root.pem.utf8).write(to: URL(fileURLWithPath: root + "/" + DumpSynthesizer.signerRootFile))
        try Data(pki.tsaRoot.pem.utf8).write(to: URL(fileURLWithPath: root + "/" + DumpSynthesizer.tsaRootFile))

        let plans = plans()
        let stillCount = plans.filter { $0.kind == .still }.count
        let renderer = MediaRenderer(ffmpeg: options.ffmpeg, seed: options.seed, work: work)
        let (w, h) = (options.stillWidth, options.stillHeight)
        // The three still renders are independent ffmpeg processes: run them side by side.
        for case .failure(let e) in ParallelWork.run(3, workers: 3, { job in
            switch job {
            case 0: try renderer.renderStills(count: stillCount, width: w, height: h)
            case 1: try renderer.renderRing(stills: stillCount)
            default: try renderer.renderDepth(stills: stillCount)
            }
        }) { throw e }
        let videoPlans = plans.filter { $0.kind == .video }
        let seconds = options.videoSeconds, mbps = options.videoMbps
        for case .failure(let e) in ParallelWork.run(videoPlans.count, workers: options.concurrency, { i in
            try renderer.renderVideo(index: videoPlans[i].media, seconds: seconds, mbps: mbps, to: "\(work)/video-\(videoPlans[i].media).mp4")
        }) { throw e }

        let context = SynthContext(options: options, pki: pki, root: root, work: work)
        var captures: [ExpectedDump.Capture] = []
        for r in ParallelWork.run(plans.count, workers: options.concurrency, { try context.build(plans[$0]) }) {
            captures += try r.get()
        }
        try? fm.removeItem(atPath: work)

        let expected = ExpectedDump(
            format: DumpSynthesizer.formatName, seed: options.seed, stills: options.stills, videos: options.videos,
            videoSeconds: options.videoSeconds, faults: options.faults.map(\.name),
            signerRoot: DumpSynthesizer.signerRootFile, tsaRoot: DumpSynthesizer.tsaRootFile,
            devices: pki.devices.map {
                ExpectedDump.Device(name: $0.name, keyFingerprint: $0.keyFingerprint, issuance: $0.issuance, model: $0.model,
                                    subject: $0.certificate.subject)
            },
            captures: captures, nonRepeatable: DumpSynthesizer.nonRepeatable)
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (enc.encode(expected) + Data([0x0A])).write(to: URL(fileURLWithPath: root + "/expected.json"))
        return expected
    }
}

