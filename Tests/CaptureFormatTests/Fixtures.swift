@testable import CaptureFormat
import Crypto
import Ground
import TestLiterals

/// Records used by several tests. Digests are SHA-256 of short known strings.
enum Fixtures {
    static func digest(_ s: String) -> ContentID { ContentID.sha256(of: Array(s.utf8)) }
    static let device = "/var/mobile/Containers/Data/Application/5C1E0B2A-7D7A-4C55-9A55-0F1E2D3C4B5A/Documents/captures/c1"

    static func still(version: String = "0.25.3", digests: Bool = true) -> CaptureRecord {
        CaptureRecord(
            appVersion: AppVersion(version)!, mediaKind: .still, captureTime: CaptureTime("2026-11-30T14:03:27.123Z")!,
            timeZone: CaptureTimeZone(offsetMinutes: 60, identifier: "Europe/Berlin"), captureToSignatureMs: 2310,
            sensorIntervalCv: 0.0312,
            poseTrace: PoseTrace(rateHz: 50, startOffsetMs: -500, gyroScale: 0.001, attitudeScale: 1.0 / 32767,
                                 samples: [[12, -3, 40, 32000, 100, -200, 5], [13, -2, 41, 31999, 101, -201, 6]]),
            streamedChunks: nil,
            evidence: CaptureEvidence(
                rawPcm: .collected(path: device + "/evidence/audio.caf", sha256: digests ? digest("audio") : nil),
                sensorLog: .collected(path: device + "/evidence/sensors.jsonl", sha256: digests ? digest("sensors") : nil),
                ringBufferDir: .collected(path: device + "/evidence/ring", sha256: digests ? digest("ring") : nil)),
            depth: .map(DepthMap(path: device + "/evidence/depth.png", sha256: digest("depth"), format: "image/png",
                                 width: 640, height: 480, near: 0.2, far: 12.5)),
            mainsHz: MainsHz(hz: 50, exposureDurationS: 0.01),
            lens: LensRecord(camera: "telephoto", focalLengthMm: 6.86),
            secondView: SecondViewRecord(path: device + "/evidence/second-view.jpg", sha256: digest("second"), camera: "ultra-wide",
                                         baselineMm: 12.5, calibration: .init(focalLengthPx: 1480.25, principalPointX: 960,
                                                                              principalPointY: 540, imageWidth: 1920, imageHeight: 1080)))
    }

    static func video() -> CaptureRecord {
        CaptureRecord(
            appVersion: AppVersion("0.26.0")!, mediaKind: .video, captureTime: CaptureTime("2026-12-01T09:15:00.007Z")!,
            captureToSignatureMs: 4180, sensorIntervalCv: nil, poseTrace: nil,
            streamedChunks: StreamedChunksRecord(chunkSize: 1_048_576, root: digest("root"), videoChunks: 72, audioChunks: 2),
            evidence: CaptureEvidence(rawPcm: .failed, sensorLog: .collected(path: device + "/evidence/sensors.jsonl", sha256: digest("s")),
                                      ringBufferDir: .neverRecorded),
            depth: nil, mainsHz: MainsHz(hz: 60, exposureDurationS: nil), lens: nil, secondView: nil)
    }
}
