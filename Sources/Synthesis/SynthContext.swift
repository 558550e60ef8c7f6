import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground

/// Shared state of one `write(to:)` run; builds captures (one worker thread each).
struct SynthContext: Sendable {
    let options: SynthOptions
    let pki: SynthPKI
    /// The dump root (absolute).
    let root: String
    /// Where ffmpeg's output waits to be moved into capture folders.
    let work: String

    static let appVersion = AppVersion(major: 0, minor: 25, patch: 3)
    static let preDigestVersion = AppVersion(major: 0, minor: 24, patch: 2)
    static let customClaimIds = ["identity.device-model", "location.city", "time.hour"]

    func build(_ plan: DumpSynthesizer.Plan) throws -> [ExpectedDump.Capture] {
        switch plan.kind {
        case .still: try buildStill(plan)
        case .video: try buildVideo(plan)
        case .audio, .document, .unknown: throw SynthError(StatusCode.synthUsage, "a capture is a still or a video")
        }
    }

    /// Folder names and on-device paths of one capture.
    struct Folder {
        let name: String
        let rel: String
        let abs: String
        let onDevice: String
        var evidence: String { abs + "/evidence" }
        func recorded(_ name: String) -> String { onDevice + name }
        func relFile(_ name: String) -> String { rel + "/evidence/" + name }
    }

    func folder(scene: CaptureScene, device: Int, suffix: String = "") throws -> Folder {
        var r = SeededRandom(seed: options.seed, stream: "app/\(device)")
        let app = r.uuid().uppercased()
        let name = scene.sessionId + suffix
        let f = Folder(name: name, rel: "captures/" + name, abs: root + "/captures/" + name,
                       onDevice: "/var/mobile/Containers/Data/Application/\(app)/Documents/captures/\(scene.sessionId)/evidence/")
        try FileManager.default.createDirectory(atPath: f.evidence, withIntermediateDirectories: true)
        return f
    }

    // MARK: Files

    /// Writes `bytes` to a new (or truncated) file at `path`, `piece` bytes per write.
    /// Not `Data.write(to:)`: on Linux, Foundation's loop after a partial `write(2)` (the kernel
    /// writes at most 0x7ffff000 bytes per call) starts again from the first byte, so a file over
    /// 2 GiB came out with its beginning repeated at offset 2,147,479,552 — a 4.3 GB signed video
    /// whose hard binding then failed in our verifier and in c2pa-rs alike.
    static func write(_ bytes: [UInt8], to path: String, piece: Int = 64 << 20) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw SynthError(StatusCode.synthIo, "cannot create \(path)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, piece))
            try handle.write(contentsOf: bytes[offset..<end])
            offset = end
        }
    }

    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Moves a rendered work file into place and returns its bytes.
    func take(_ workName: String, to path: String) throws -> [UInt8] {
        let from = work + "/" + workName
        let bytes = try SynthContext.read(from)
        try FileManager.default.moveItem(atPath: from, toPath: path)
        return bytes
    }

    /// Every file and symlink under `folder`, relative to the dump root, sorted bytewise.
    func files(under folderRel: String) -> [String] {
        var out: [String] = []
        func walk(_ rel: String, depth: Int) {
            guard depth < 8, let names = try? FileManager.default.contentsOfDirectory(atPath: root + "/" + rel) else { return }
            for n in names {
                let r = rel + "/" + n
                guard let st = try? FileSystem.status(atPath: root + "/" + r) else { continue }
                if st.isDirectory { walk(r, depth: depth + 1) } else { out.append(r) }
            }
        }
        walk(folderRel, depth: 0)
        return out.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    // MARK: Signing

    func signer(device: SynthPKI.Device, timestamped: Bool, genTime: Date, serial: UInt64) -> ManifestBuilder.Signer {
        let key = device.key, tsa = pki.tsa
        var s = ManifestBuilder.Signer(algorithm: .es256, certificateChain: device.chain.map(\.der),
                                       sign: { try key.sign($0, algorithm: .es256) },
                                       timestamp: timestamped ? { try tsa.token(imprintOf: $0, at: genTime, serial: serial) } : nil)
        s.fixedReserve = DumpSynthesizer.signatureReserve
        return s
    }

    func builder(scene: CaptureScene, record: CaptureRecord, commitment: ContextCommitment, extra: [(String, CBOR)],
                 device: SynthPKI.Device, timestamped: Bool) throws -> ManifestBuilder {
        var action: [(String, CBOR)] = [
            ("action", .text("c2pa.created")),
            ("digitalSourceType", .text("http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture")),
            ("softwareAgent", .textMap([("name", .text("Exhibit Capture")), ("version", .text(record.appVersion.description))])),
        ]
        if scene.timeRung == .exactMs { action.append(("when", .text(scene.exactTime))) }
        let actions = CBOR.textMap([("actions", .array([.textMap(action)]))])
        let assertions: [(label: String, content: CBOR)] = [
            ("c2pa.actions.v2", actions),
            (CaptureRecord.assertionLabel, try CBOR(decoding: record.encoded())),
            (ContextTreeAssertion.label, try CBOR(decoding: commitment.assertion.encoded())),
        ] + extra.map { (label: $0.0, content: $0.1) }
        let genTime = scene.date.addingTimeInterval(Double(scene.captureToSignatureMs) / 1000)
        return ManifestBuilder(manifestLabel: scene.manifestLabel, instanceID: scene.instanceID, generatorName: "Exhibit Capture",
                               generatorVersion: record.appVersion.description, assertions: assertions,
                               signer: signer(device: device, timestamped: timestamped, genTime: genTime,
                                              serial: UInt64(1000 + scene.ordinal)))
    }

    /// SHA-256 of the active claim's bytes in a signed file, or nil when no store parses.
    static func claimSHA256(of file: [UInt8], video: Bool) -> String? {
        let src = MemoryByteSource(file)
        guard let lookup = try? (video ? BMFFContainer.manifest(in: src) : JPEGContainer.manifest(in: src)),
              case .found(let loc) = lookup, let store = try? ManifestStore(parsing: loc.storeBytes),
              let claim = store.activeManifest?.claimBytes else { return nil }
        return Hex.encode(MessageDigest.sha256(Array(claim)))
    }

    // MARK: Disclosure

    /// Commits the capture's claims; returns the commitment and the committed claims.
    func commit(_ values: [String: String], masterSeed: [UInt8]) throws -> (ContextCommitment, [ContextClaim]) {
        let (claims, never) = try ClaimSchema.partition(values)
        return (try ContextCommitment.commit(claims: claims, masterSeed: masterSeed, neverRecorded: never), claims)
    }

    /// Writes `sealed`, `short`, `full` and `custom` bundles into `disclosure/`.
    func writeBundles(_ commitment: ContextCommitment, claims: [ContextClaim], masterSeed: [UInt8],
                      folder: Folder) throws -> (expected: [ExpectedDump.Bundle], bundles: [DisclosureProfile: DisclosureBundle]) {
        let dir = folder.abs + "/disclosure"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var out: [ExpectedDump.Bundle] = []
        var bundles: [DisclosureProfile: DisclosureBundle] = [:]
        for p in DisclosureProfile.allCases {
            let b = try commitment.openSubset(p, claims: claims, masterSeed: masterSeed,
                                              customClaimIds: p == .custom ? SynthContext.customClaimIds : [])
            let name = "\(p.rawValue).bundle.json"
            try b.encodedJSON().write(to: URL(fileURLWithPath: dir + "/" + name))
            bundles[p] = b
            out.append(ExpectedDump.Bundle(file: folder.rel + "/disclosure/" + name, profile: p.rawValue, result: "verified",
                                           failureLabels: [], openedLeaves: b.opened.count, withheldCount: b.withheldCount))
        }
        return (out, bundles)
    }

    // MARK: Records

    static func poseTrace(random: inout SeededRandom) -> PoseTrace {
        var samples: [[Int]] = []
        for _ in 0..<50 {
            samples.append([random.int(in: -40...40), random.int(in: -40...40), random.int(in: -20...20),
                            random.int(in: 32000...32767), random.int(in: -600...600), random.int(in: -600...600), random.int(in: -300...300)])
        }
        return PoseTrace(rateHz: 50, startOffsetMs: -500, gyroScale: 0.001, attitudeScale: 1.0 / 32767, samples: samples)
    }

    static func sidecar(_ sink: SidecarSink, _ state: SidecarState, committed: ContentID? = nil, file: String? = nil,
                        recorded: String? = nil, findings: [PathFinding] = [], note: String? = nil) -> ExpectedDump.Sidecar {
        ExpectedDump.Sidecar(sink: sink.rawValue, state: state.rawValue, committedSha256: committed?.hex, file: file,
                             recordedPath: recorded, pathFindings: findings.map(\.rawValue), note: note)
    }
}
