import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground
import TestLiterals
@testable import Verify

/// A dump with one still capture, built in-process with the real writers: evidence files,
/// a record assertion committing their digests, a context tree, a JPEG signed by
/// `ManifestBuilder` (trusted PKI of `C2PAValidatorTests`), and disclosure bundles.
/// Each test tweaks the record or the files to produce the state it checks.
final class CaptureDumpFixture {
    static let device = "/var/mobile/Containers/Data/Application/5C1E0B2A-7D7A-4C55-9A55-0F1E2D3C4B5A/Documents/captures/c1"
    static let captureId = "3f1c2b4a-5d6e-4f70-8192-a3b4c5d6e7f8"
    static let seed = [UInt8](repeating: 7, count: 32)

    let root: String
    var folder: String { root + "/captures/" + Self.captureId }
    var evidence: String { folder + "/evidence" }
    var delivery: String { folder + "/IMG_20261130_140327_123.jpg" }

    /// Evidence file contents by name (ring frames under `ring/`).
    static let files: [(String, [UInt8])] = [
        ("audio.caf", Array("caff-audio-bytes".utf8)),
        ("sensors.jsonl", Array("{\"type\":\"anchor\"}\n".utf8)),
        ("depth.png", Array("png-depth".utf8)),
        ("second-view.jpg", Array("second-view".utf8)),
    ] + ["m3", "m2", "m1", "p1", "p2", "p3", "p4"].map { ("ring/frame-\($0).jpg", Array("frame \($0)".utf8)) }

    /// Values committed in the context tree (the rest of the 17 ladder claims: never-recorded).
    static let contextValues: [String: String] = [
        "location.grid-region": "N52E013", "location.country": "DE", "location.city": "Berlin",
        "time.year": "2026", "time.month": "2026-11", "time.day": "2026-11-30",
        "identity.key-fingerprint": String(repeating: "ab", count: 32), "context.weather": "overcast",
    ]

    init() {
        root = NSTemporaryDirectory() + "verify-dump-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: root + "/captures/" + Self.captureId + "/evidence/ring",
                                                 withIntermediateDirectories: true)
        for (name, bytes) in Self.files { write(evidence + "/" + name, bytes) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func write(_ path: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    static func digest(_ bytes: [UInt8]) -> ContentID { ContentID.sha256(of: bytes) }
    static func digest(of name: String) -> ContentID { digest(files.first { $0.0 == name }!.1) }
    static var ringDigest: ContentID {
        let frames = files.filter { $0.0.hasPrefix("ring/") }.map { (name: String($0.0.dropFirst(5)), sha256: digest($0.1)) }
        return try! RingListing.digest(frames)
    }

    /// The record as an honest 0.25.3 device writes it for this folder.
    static func record() -> CaptureRecord {
        CaptureRecord(
            appVersion: AppVersion("0.25.3")!, mediaKind: .still, captureTime: CaptureTime("2026-11-30T14:03:27.123Z")!,
            timeZone: CaptureTimeZone(offsetMinutes: 60, identifier: "Europe/Berlin"), captureToSignatureMs: 2310,
            sensorIntervalCv: 0.0312,
            poseTrace: PoseTrace(rateHz: 50, startOffsetMs: -500, gyroScale: 0.001, attitudeScale: 1.0 / 32767,
                                 samples: [[12, -3, 40, 32000, 100, -200, 5], [13, -2, 41, 31999, 101, -201, 6]]),
            streamedChunks: nil,
            evidence: CaptureEvidence(
                rawPcm: .collected(path: device + "/evidence/audio.caf", sha256: digest(of: "audio.caf")),
                sensorLog: .collected(path: device + "/evidence/sensors.jsonl", sha256: digest(of: "sensors.jsonl")),
                ringBufferDir: .collected(path: device + "/evidence/ring/", sha256: ringDigest)),
            depth: .map(DepthMap(path: device + "/evidence/depth.png", sha256: digest(of: "depth.png"), format: "image/png",
                                 width: 640, height: 480, near: 0.2, far: 12.5)),
            mainsHz: MainsHz(hz: 50, exposureDurationS: 0.01),
            lens: LensRecord(camera: "telephoto", focalLengthMm: 6.86),
            secondView: SecondViewRecord(path: device + "/evidence/second-view.jpg", sha256: digest(of: "second-view.jpg"),
                                         camera: "ultra-wide", baselineMm: 12.5,
                                         calibration: .init(focalLengthPx: 1480.25, principalPointX: 960, principalPointY: 540,
                                                            imageWidth: 1920, imageHeight: 1080)))
    }

    static func commitment() throws -> (ContextCommitment, [ContextClaim]) {
        let (claims, never) = try ClaimSchema.partition(contextValues)
        return (try ContextCommitment.commit(claims: claims, masterSeed: seed, neverRecorded: never), claims)
    }

    /// Signs the delivery JPEG with `record` (nil: no record assertion) and the context tree
    /// (unless `contextTree` is false), and writes the short and full bundles.
    @discardableResult
    func seal(record: CaptureRecord? = CaptureDumpFixture.record(), contextTree: Bool = true, bundles: Bool = true) throws -> [UInt8] {
        let (commitment, claims) = try Self.commitment()
        var extra: [(label: String, content: CBOR)] = []
        if let record { extra.append((CaptureRecord.assertionLabel, record.cbor)) }
        if contextTree { extra.append((ContextTreeAssertion.label, commitment.assertion.cbor)) }
        let jpeg = try Self.builder(extra: extra).signJPEG(try C2PAValidatorTests().media("jpg"))
        write(delivery, jpeg)
        if bundles {
            try? FileManager.default.createDirectory(atPath: folder + "/disclosure", withIntermediateDirectories: true)
            for p in [DisclosureProfile.short, .full] {
                let b = try commitment.openSubset(p, claims: claims, masterSeed: Self.seed)
                write(folder + "/disclosure/\(p.rawValue).bundle.json", [UInt8](b.encodedJSON()))
            }
        }
        return jpeg
    }

    static func builder(extra: [(label: String, content: CBOR)]) throws -> ManifestBuilder {
        let pki = try C2PAValidatorTests.pki.get()
        let signer = ManifestBuilder.Signer(algorithm: .es256, certificateChain: [pki.leaf.der, pki.root.der],
                                            sign: { try pki.leafKey.sign($0, algorithm: .es256) }, timestamp: nil)
        let actions = CBOR.textMap([("actions", .array([.textMap([
            ("action", .text("c2pa.created")),
            ("digitalSourceType", .text("http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture")),
        ])]))])
        return ManifestBuilder(manifestLabel: "urn:c2pa:6b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", instanceID: "xmp:iid:1",
                               generatorName: "Exhibit Capture", assertions: [("c2pa.actions.v2", actions)] + extra, signer: signer)
    }

    /// A 1 s MP4 of noise (mdat of a few hundred KB, so larger than the header gap a hashing
    /// source fills by reading ahead).
    static func noisyMP4() throws -> [UInt8] {
        let out = NSTemporaryDirectory() + "verify-noise-\(getpid()).mp4"
        if !FileManager.default.fileExists(atPath: out) {
            let tmp = NSTemporaryDirectory() + UUID().uuidString + ".mp4"
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            p.arguments = ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=320x240:r=25,geq=random(1)*255:128:128",
                           "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", tmp]
            try p.run()
            p.waitUntilExit()
            if rename(tmp, out) != 0 { try? FileManager.default.removeItem(atPath: tmp) }
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    static func verifier() throws -> CaptureVerifier {
        let pki = try C2PAValidatorTests.pki.get()
        return CaptureVerifier(signerAnchors: try TrustAnchors([pki.root]), tsaAnchors: try TrustAnchors([pki.tsaRoot]))
    }

    var location: CaptureLocation { CaptureLocation(deliveryFile: delivery, captureFolder: folder, dumpRoot: root) }

    func verify(knownDigests: [String: ContentID] = [:]) throws -> CaptureReport {
        try Self.verifier().verify(location, knownDigests: knownDigests)
    }
}

extension CaptureReport {
    func sidecar(_ sink: SidecarSink) -> Sidecar? { sidecars.first { $0.sink == sink } }
    var states: [SidecarSink: SidecarState] { Dictionary(uniqueKeysWithValues: sidecars.map { ($0.sink, $0.state) }) }
}
