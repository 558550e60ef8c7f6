import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground

extension SynthContext {
    static let ringNames = ["frame-m3.jpg", "frame-m2.jpg", "frame-m1.jpg", "frame-p1.jpg", "frame-p2.jpg", "frame-p3.jpg", "frame-p4.jpg"]

    /// One still capture (and, for `rewrapped`, its re-wrapped twin).
    func buildStill(_ plan: DumpSynthesizer.Plan) throws -> [ExpectedDump.Capture] {
        var scene = CaptureScene(seed: options.seed, ordinal: plan.ordinal, coarseTime: plan.coarseTime, fault: plan.fault != nil)
        let device = pki.devices[plan.device]
        let fault = plan.fault
        let folder = try folder(scene: scene, device: plan.device)
        let n = plan.media + 1
        let w = options.stillWidth, h = options.stillHeight

        // Delivery media: the rendered still with EXIF.
        let exposure: (UInt32, UInt32) = (1, UInt32(scene.random.int(in: 30...500)))
        let exif = EXIFWriter(make: "Apple", model: device.model, software: "Exhibit Capture \(SynthContext.appVersion)",
                              dateTimeOriginal: scene.exifDateTime, subSecTimeOriginal: String(format: "%03d", Int(scene.epochMs % 1000)),
                              exposureTime: exposure, fNumber: (178, 100), focalLength: (686, 100),
                              iso: UInt16(scene.random.int(in: 25...800)))
        let jpeg = try exif.insert(into: try SynthContext.read(String(format: "%@/still-%07d.jpg", work, n)))
        try? FileManager.default.removeItem(atPath: String(format: "%@/still-%07d.jpg", work, n))
        let deliveryName = scene.deliveryName(video: false)
        let deliveryRel = folder.rel + "/" + deliveryName

        // Unsigned and garbage-manifest captures carry no evidence or bundles (docs/capture-synth.md).
        if fault == .unsigned {
            for name in ["second-%07d.jpg", "depth-%07d.png"] { try? FileManager.default.removeItem(atPath: work + "/" + String(format: name, n)) }
            for k in 0..<7 { try? FileManager.default.removeItem(atPath: work + "/" + String(format: "ring-%07d.jpg", plan.media * 7 + k + 1)) }
            try? FileManager.default.removeItem(atPath: folder.evidence)
        }
        if fault == .unsigned {
            try SynthContext.write(jpeg, to: folder.abs + "/" + deliveryName)
            return [unsignedCapture(scene: scene, folder: folder, deliveryRel: deliveryRel, kind: "still", fault: fault)]
        }

        let preDigest = fault == .preDigestRecord
        let digests = !preDigest

        // Evidence bytes.
        let audio = CAFWriter.file(samples: CAFWriter.samples(seconds: 1.5, random: &scene.random))
        let place = scene.place ?? CaptureScene.places[0]
        let log = SensorLogWriter(session: scene.sessionId, frameClockEpochNs: UInt64(scene.epochMs - 1000) * 1_000_000,
                                  wallClock: CaptureScene.iso(scene.epochMs - 1000), seconds: 2, latitude: scene.lat,
                                  longitude: scene.lon, altitude: place.altitude).render(random: &scene.random)
        let audioDigest = ContentID.sha256(of: audio), logDigest = ContentID.sha256(of: log.bytes)
        var ringFrames: [(name: String, bytes: [UInt8])] = []
        for (k, name) in SynthContext.ringNames.enumerated() {
            let wn = String(format: "ring-%07d.jpg", plan.media * 7 + k + 1)
            ringFrames.append((name, try SynthContext.read(work + "/" + wn)))
            try? FileManager.default.removeItem(atPath: work + "/" + wn)
        }
        let ringDigest = try RingListing.digest(ringFrames.map { ($0.name, ContentID.sha256(of: $0.bytes)) })

        // Sinks as the record states them.
        let audioRecorded: String = switch fault {
        case .pathParentTraversal?: folder.onDevice.replacingOccurrences(of: "/captures/\(scene.sessionId)/", with: "/captures/\(scene.sessionId)/../\(scene.sessionId)/") + "audio.caf"
        case .pathOutside?: "/etc/passwd"
        default: folder.recorded("audio.caf")
        }
        let rawPcm: SinkRecord = fault == .sinkFailed ? .failed : .collected(path: audioRecorded, sha256: digests ? audioDigest : nil)
        let sensorLog: SinkRecord = fault == .sinkDisabled ? .neverRecorded
            : .collected(path: folder.recorded("sensors.jsonl"), sha256: digests ? logDigest : nil)
        let ringRecorded = String(folder.recorded("ring"))
        let ring: SinkRecord = .collected(path: ringRecorded, sha256: digests ? ringDigest : nil)

        // Depth and second view (0.25.0 on; a pre-0.25 record states depth absent, no second view).
        var depthRecord: DepthRecord = .absent(reason: "unsupported-hardware")
        var secondRecord: SecondViewRecord?
        var extra: [(String, CBOR)] = []
        var depthBytes: [UInt8] = [], secondBytes: [UInt8] = []
        let disparity = MediaRenderer.disparity(ofStill: plan.media)
        if !preDigest {
            depthBytes = try take(String(format: "depth-%07d.png", n), to: folder.evidence + "/depth.png")
            secondBytes = try take(String(format: "second-%07d.jpg", n), to: folder.evidence + "/second-view.jpg")
            let dd = ContentID.sha256(of: depthBytes)
            let ds = MediaRenderer.depthSize
            depthRecord = .map(DepthMap(path: folder.recorded("depth.png"), sha256: dd, format: "image/png", width: ds.width,
                                        height: ds.height, near: 0.2, far: 12.5))
            let focal = 1100.0
            secondRecord = SecondViewRecord(path: folder.recorded("second-view.jpg"), sha256: ContentID.sha256(of: secondBytes),
                                            camera: "ultra-wide", baselineMm: 12.5,
                                            calibration: .init(focalLengthPx: focal, principalPointX: Double(w) / 2,
                                                               principalPointY: Double(h) / 2, imageWidth: w, imageHeight: h))
            extra.append(("c2pa.depthmap.GDepth", .textMap([
                ("GDepth:Format", .text("RangeInverse")), ("GDepth:Near", .double(0.2)), ("GDepth:Far", .double(12.5)),
                ("GDepth:Mime", .text("image/png")), ("GDepth:Units", .text("m")), ("GDepth:MeasureType", .text("OpticalAxis")),
                ("GDepth:ImageWidth", .int(ds.width)), ("GDepth:ImageHeight", .int(ds.height)),
                ("GDepth:Data", .textMap([("url", .text("depth.png")), ("hash", .bytes(dd.bytes))])),
            ])))
            extra.append(("org.exhibit.hash.collection", .textMap([
                ("uris", .array([.textMap([("uri", .text("depth.png")), ("hash", .bytes(dd.bytes)),
                                            ("size", .int(depthBytes.count)), ("dc:format", .text("image/png"))])])),
                ("alg", .text("sha256")),
            ])))
        } else {
            for name in ["second-%07d.jpg", "depth-%07d.png"] { try? FileManager.default.removeItem(atPath: work + "/" + String(format: name, n)) }
        }

        var sensorsPresent = ["accelerometer", "gyroscope", "barometer"]
        if scene.place != nil { sensorsPresent.append("location") }
        let record = CaptureRecord(
            appVersion: preDigest ? SynthContext.preDigestVersion : SynthContext.appVersion, mediaKind: .still,
            captureTime: try required(scene.captureTime, "capture time"),
            timeZone: CaptureTimeZone(offsetMinutes: place.offsetMinutes, identifier: place.zone),
            captureToSignatureMs: scene.captureToSignatureMs, sensorIntervalCv: log.intervalCv,
            poseTrace: SynthContext.poseTrace(random: &scene.random), streamedChunks: nil,
            evidence: CaptureEvidence(rawPcm: rawPcm, sensorLog: sensorLog, ringBufferDir: ring),
            depth: depthRecord, mainsHz: MainsHz(hz: place.mainsHz, exposureDurationS: Double(exposure.0) / Double(exposure.1)),
            lens: scene.lens, secondView: secondRecord)

        // Disclosure.
        let (commitment, claims) = try commit(scene.claimValues(keyFingerprint: device.keyFingerprint, deviceModel: device.model,
                                                                sensorsPresent: sensorsPresent), masterSeed: scene.masterSeed)

        // Sign.
        let timestamped = plan.timestamped && fault != .claimFlip && fault != .signatureFlip
        let signed: [UInt8]
        do {
            signed = try builder(scene: scene, record: record, commitment: commitment, extra: extra, device: device,
                                 timestamped: timestamped).signJPEG(jpeg)
        } catch { throw SynthError(StatusCode.synthSign, "\(error)") }

        // Evidence files on disk (after sealing: the faults change what the record committed).
        if fault == .sinkFailed {
            try SynthContext.write(Array(audio.prefix(audio.count / 2)), to: folder.evidence + "/audio.caf")
        } else if fault == .sidecarChanged {
            var changed = audio
            changed[changed.count - 101] ^= 0x40
            try SynthContext.write(changed, to: folder.evidence + "/audio.caf")
        } else {
            try SynthContext.write(audio, to: folder.evidence + "/audio.caf")
        }
        switch fault {
        case .sidecarMissing?, .sinkDisabled?: break
        case .symlinkEscape?: try FileManager.default.createSymbolicLink(atPath: folder.evidence + "/sensors.jsonl", withDestinationPath: "/etc/hostname")
        default: try SynthContext.write(log.bytes, to: folder.evidence + "/sensors.jsonl")
        }
        let ringDir = folder.evidence + "/ring"
        try FileManager.default.createDirectory(atPath: ringDir, withIntermediateDirectories: true)
        for f in ringFrames {
            switch (fault, f.name) {
            case (.ringFrameRemoved?, "frame-p4.jpg"): continue
            case (.ringFrameRenamed?, "frame-m3.jpg"): try SynthContext.write(f.bytes, to: ringDir + "/frame-m3-renamed.jpg")
            default: try SynthContext.write(f.bytes, to: ringDir + "/" + f.name)
            }
        }
        if fault == .ringFrameAdded, let last = ringFrames.last { try SynthContext.write(last.bytes, to: ringDir + "/frame-p5.jpg") }

        // Delivery file, with the C2PA-level fault applied.
        let delivery = try SynthFaults.apply(fault, toSigned: signed, video: false)
        try SynthContext.write(delivery, to: folder.abs + "/" + deliveryName)

        if fault == .garbageManifest { try FileManager.default.removeItem(atPath: folder.evidence) }

        // Bundles (plus one tampered bundle for a bundle fault).
        var (bundles, made) = (fault == .garbageManifest) ? ([], [:])
            : try writeBundles(commitment, claims: claims, masterSeed: scene.masterSeed, folder: folder)
        if case .bundle(let label)? = fault {
            bundles.append(try SynthFaults.writeTamperedBundle(label, bundles: made, claims: claims, folder: folder))
        }

        // Expectations.
        var sidecars: [ExpectedDump.Sidecar] = []
        var unreferenced: [String] = []
        let ev = folder.rel + "/evidence/"
        if fault != .garbageManifest {
            switch fault {
            case .sinkFailed?:
                sidecars.append(SynthContext.sidecar(.audio, .failed))
                unreferenced.append("audio.caf")
            case .pathOutside?:
                sidecars.append(SynthContext.sidecar(.audio, .missing, committed: audioDigest, file: ev + "passwd", recorded: audioRecorded))
                unreferenced.append("audio.caf")
            case .pathParentTraversal?:
                sidecars.append(SynthContext.sidecar(.audio, .verified, committed: audioDigest, file: ev + "audio.caf", recorded: audioRecorded,
                                                     findings: [.parentTraversal]))
            case .sidecarChanged?:
                sidecars.append(SynthContext.sidecar(.audio, .mismatch, committed: audioDigest, file: ev + "audio.caf", recorded: audioRecorded))
            default:
                sidecars.append(SynthContext.sidecar(.audio, digests ? .verified : .uncommitted, committed: digests ? audioDigest : nil,
                                                     file: ev + "audio.caf", recorded: audioRecorded))
            }
            let logRecorded = folder.recorded("sensors.jsonl")
            switch fault {
            case .sinkDisabled?: sidecars.append(SynthContext.sidecar(.sensors, .neverRecorded))
            case .sidecarMissing?:
                sidecars.append(SynthContext.sidecar(.sensors, .missing, committed: logDigest, file: ev + "sensors.jsonl", recorded: logRecorded))
            case .symlinkEscape?:
                sidecars.append(SynthContext.sidecar(.sensors, .missing, committed: logDigest, file: ev + "sensors.jsonl", recorded: logRecorded,
                                                     note: "symlink-escapes-dump"))
            default:
                sidecars.append(SynthContext.sidecar(.sensors, digests ? .verified : .uncommitted, committed: digests ? logDigest : nil,
                                                     file: ev + "sensors.jsonl", recorded: logRecorded))
            }
            let ringChanged = fault == .ringFrameAdded || fault == .ringFrameRemoved || fault == .ringFrameRenamed
            sidecars.append(SynthContext.sidecar(.ring, preDigest ? .uncommitted : (ringChanged ? .mismatch : .verified),
                                                 committed: digests ? ringDigest : nil, file: ev + "ring", recorded: ringRecorded))
            if let s = secondRecord, case .map(let d) = depthRecord {
                sidecars.append(SynthContext.sidecar(.depth, .verified, committed: d.sha256, file: ev + "depth.png", recorded: d.path))
                sidecars.append(SynthContext.sidecar(.secondView, .verified, committed: s.sha256, file: ev + "second-view.jpg", recorded: s.path))
            } else {
                sidecars.append(SynthContext.sidecar(.depth, .neverRecorded))
                sidecars.append(SynthContext.sidecar(.secondView, .neverRecorded))
            }
        }
        let c2pa = SynthFaults.expectedC2PA(fault, trusted: device.trustedWithSignerRoot, timestamped: timestamped)
        var capture = ExpectedDump.Capture(
            id: folder.name, folder: folder.rel, sessionId: scene.sessionId, deliveryFile: deliveryRel, kind: "still",
            faults: fault.map { [$0.name] } ?? [], files: files(under: folder.rel), device: device.name,
            keyFingerprint: c2pa.integrity == "malformed" ? nil : device.keyFingerprint,
            integrity: c2pa.integrity, trust: c2pa.trust, failureCodes: c2pa.failureCodes, timestamp: c2pa.timestamp,
            claimSHA256: SynthContext.claimSHA256(of: delivery, video: false), sameClaimAs: nil,
            appVersion: record.appVersion.description, captureTime: record.captureTime.text, timeRung: record.captureTime.rung.name,
            sidecars: sidecars, unreferenced: unreferenced.sorted(), bundles: bundles, streamedChunks: nil,
            secondView: secondRecord == nil ? nil : ExpectedDump.SecondView(disparityPx: disparity, imageWidth: w, imageHeight: h,
                                                                            disparityAt96: Double(disparity) * 96 / Double(w)))
        if fault == .garbageManifest {
            capture.appVersion = nil; capture.captureTime = nil; capture.timeRung = nil
        }
        guard fault == .rewrapped else { return [capture] }

        // rewrapped: the clean original above, plus a copy re-wrapped with APP11 instance En = 7.
        var original = capture
        original.faults = []
        let twin = SynthContext.Folder(name: folder.name + "-rewrapped", rel: folder.rel + "-rewrapped",
                                           abs: folder.abs + "-rewrapped", onDevice: folder.onDevice)
        try FileManager.default.copyItem(atPath: folder.abs, toPath: twin.abs)
        let rewrapped = try SynthFaults.setInstance(signed, 7)
        try SynthContext.write(rewrapped, to: twin.abs + "/" + deliveryName)
        var copy = capture
        copy.id = twin.name
        copy.folder = twin.rel
        copy.deliveryFile = twin.rel + "/" + deliveryName
        copy.files = files(under: twin.rel)
        copy.sameClaimAs = original.id
        func rebase(_ p: String?) -> String? { p.map { twin.rel + $0.dropFirst(folder.rel.count) } }
        copy.sidecars = copy.sidecars.map { var s = $0; s.file = rebase(s.file); return s }
        copy.bundles = copy.bundles.map { var b = $0; b.file = rebase(b.file) ?? b.file; return b }
        return [original, copy]
    }

    /// The expectations of a capture with no manifest at all.
    func unsignedCapture(scene: CaptureScene, folder: Folder, deliveryRel: String, kind: String, fault: SynthFault?) -> ExpectedDump.Capture {
        ExpectedDump.Capture(id: folder.name, folder: folder.rel, sessionId: scene.sessionId, deliveryFile: deliveryRel, kind: kind,
                             faults: fault.map { [$0.name] } ?? [], files: files(under: folder.rel), device: nil, keyFingerprint: nil,
                             integrity: "unsigned", trust: nil, failureCodes: [], timestamp: "absent", claimSHA256: nil, sameClaimAs: nil,
                             appVersion: nil, captureTime: nil, timeRung: nil, sidecars: [], unreferenced: [], bundles: [],
                             streamedChunks: nil, secondView: nil)
    }

    func required<T>(_ v: T?, _ what: String) throws -> T {
        guard let v else { throw SynthError(StatusCode.synthInternal, "no \(what)") }
        return v
    }
}
