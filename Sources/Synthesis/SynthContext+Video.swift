import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground

extension SynthContext {
    /// One video capture: the rendered MP4, its streamed-chunk commitment, audio and sensor
    /// sidecars (the ring never-recorded), bundles, signed with `c2pa.hash.bmff.v2`.
    func buildVideo(_ plan: DumpSynthesizer.Plan) throws -> [ExpectedDump.Capture] {
        var scene = CaptureScene(seed: options.seed, ordinal: plan.ordinal, coarseTime: plan.coarseTime, fault: plan.fault != nil)
        let device = pki.devices[plan.device]
        let fault = plan.fault
        let folder = try folder(scene: scene, device: plan.device)
        let workFile = "\(work)/video-\(plan.media).mp4"
        let mp4 = try SynthContext.read(workFile)
        try? FileManager.default.removeItem(atPath: workFile)

        let seed = options.seed, ordinal = plan.ordinal
        let sim = try StreamedChunkSimulation(file: mp4, tables: try MP4SampleTables(parsing: mp4)) { track, index in
            var r = SeededRandom(seed: seed, stream: "chunk-jitter/\(ordinal)/\(track.rawValue)/\(index)")
            return r.unit() * StreamedChunkSimulation.maximumJitter
        }

        let seconds = options.videoSeconds + 1
        let audio = CAFWriter.file(samples: CAFWriter.samples(seconds: seconds, random: &scene.random))
        let place = scene.place ?? CaptureScene.places[0]
        let log = SensorLogWriter(session: scene.sessionId, frameClockEpochNs: UInt64(scene.epochMs - 500) * 1_000_000,
                                  wallClock: CaptureScene.iso(scene.epochMs - 500), seconds: seconds, latitude: scene.lat,
                                  longitude: scene.lon, altitude: place.altitude).render(random: &scene.random)
        let audioDigest = ContentID.sha256(of: audio), logDigest = ContentID.sha256(of: log.bytes)
        try SynthContext.write(audio, to: folder.evidence + "/audio.caf")
        try SynthContext.write(log.bytes, to: folder.evidence + "/sensors.jsonl")

        var sensorsPresent = ["accelerometer", "gyroscope", "barometer"]
        if scene.place != nil { sensorsPresent.append("location") }
        let record = CaptureRecord(
            appVersion: SynthContext.appVersion, mediaKind: .video, captureTime: try required(scene.captureTime, "capture time"),
            timeZone: CaptureTimeZone(offsetMinutes: place.offsetMinutes, identifier: place.zone),
            captureToSignatureMs: scene.captureToSignatureMs, sensorIntervalCv: log.intervalCv,
            poseTrace: SynthContext.poseTrace(random: &scene.random),
            streamedChunks: StreamedChunksRecord(chunkSize: StreamedChunks.chunkSize, root: sim.root,
                                                 videoChunks: sim.videoChunks, audioChunks: sim.audioChunks),
            evidence: CaptureEvidence(rawPcm: .collected(path: folder.recorded("audio.caf"), sha256: audioDigest),
                                      sensorLog: .collected(path: folder.recorded("sensors.jsonl"), sha256: logDigest),
                                      ringBufferDir: .neverRecorded),
            depth: nil, mainsHz: MainsHz(hz: place.mainsHz, exposureDurationS: 1.0 / 60), lens: scene.lens, secondView: nil)

        let (commitment, claims) = try commit(scene.claimValues(keyFingerprint: device.keyFingerprint, deviceModel: device.model,
                                                                sensorsPresent: sensorsPresent), masterSeed: scene.masterSeed)
        let signed: [UInt8]
        do {
            signed = try builder(scene: scene, record: record, commitment: commitment, extra: [], device: device,
                                 timestamped: plan.timestamped).signMP4(mp4)
        } catch { throw SynthError(StatusCode.synthSign, "\(error)") }
        let delivery = try SynthFaults.apply(fault, toSigned: signed, video: true)
        let deliveryName = scene.deliveryName(video: true)
        try SynthContext.write(delivery, to: folder.abs + "/" + deliveryName)
        let (bundles, _) = try writeBundles(commitment, claims: claims, masterSeed: scene.masterSeed, folder: folder)

        let ev = folder.rel + "/evidence/"
        let sidecars = [
            SynthContext.sidecar(.audio, .verified, committed: audioDigest, file: ev + "audio.caf", recorded: folder.recorded("audio.caf")),
            SynthContext.sidecar(.sensors, .verified, committed: logDigest, file: ev + "sensors.jsonl", recorded: folder.recorded("sensors.jsonl")),
            SynthContext.sidecar(.ring, .neverRecorded),
            SynthContext.sidecar(.depth, .neverRecorded),
            SynthContext.sidecar(.secondView, .neverRecorded),
        ]
        let c2pa = SynthFaults.expectedC2PA(fault, trusted: device.trustedWithSignerRoot, timestamped: plan.timestamped, video: true)
        return [ExpectedDump.Capture(
            id: folder.name, folder: folder.rel, sessionId: scene.sessionId, deliveryFile: folder.rel + "/" + deliveryName, kind: "video",
            faults: fault.map { [$0.name] } ?? [], files: files(under: folder.rel), device: device.name,
            keyFingerprint: device.keyFingerprint, integrity: c2pa.integrity, trust: c2pa.trust, failureCodes: c2pa.failureCodes,
            timestamp: c2pa.timestamp, claimSHA256: SynthContext.claimSHA256(of: delivery, video: true), sameClaimAs: nil,
            appVersion: record.appVersion.description, captureTime: record.captureTime.text, timeRung: record.captureTime.rung.name,
            sidecars: sidecars, unreferenced: [], bundles: bundles,
            streamedChunks: ExpectedDump.StreamedChunks(root: sim.root.hex, chunkSize: StreamedChunks.chunkSize,
                                                        videoChunks: sim.videoChunks, audioChunks: sim.audioChunks,
                                                        order: sim.leaves.map(\.track.rawValue),
                                                        completionTimes: sim.leaves.map { ($0.completion * 1_000_000).rounded() / 1_000_000 }),
            secondView: nil)]
    }
}
