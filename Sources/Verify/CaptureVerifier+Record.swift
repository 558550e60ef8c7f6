import CaptureFormat
import Foundation

extension CaptureVerifier {
    /// Parses the record assertion's CBOR; a bad record is reported, never thrown.
    func readRecord(_ bytes: [UInt8]?, into report: inout CaptureReport) -> CaptureRecord? {
        guard let bytes else {
            report.recordAssertion = report.integrity == .unsigned ? nil : "absent"
            return nil
        }
        do {
            let r = try CaptureRecord(decoding: bytes)
            report.recordAssertion = "present"
            return r
        } catch {
            report.recordAssertion = "malformed"
            report.recordError = .init(code: error.code, message: error.description)
            return nil
        }
    }

    func readContextTree(_ bytes: [UInt8]?, into report: inout CaptureReport) -> ContextTreeAssertion? {
        guard let bytes else {
            report.contextTree = report.integrity == .unsigned ? nil : "absent"
            return nil
        }
        do {
            let t = try ContextTreeAssertion(decoding: bytes)
            report.contextTree = "present"
            return t
        } catch {
            report.contextTree = "malformed"
            if report.recordError == nil {
                report.recordError = .init(code: error.code, message: "camera.contextTree: \(error.description)")
            }
            return nil
        }
    }

    /// The record's signed statements as facts: kind, capture time and rung, context, chunks.
    func applyRecord(_ r: CaptureRecord, to report: inout CaptureReport) {
        report.kind = r.mediaKind
        report.captureTime = r.captureTime.text
        report.timeRung = r.captureTime.rung.name
        var c = CaptureReport.Context()
        c.appVersion = r.appVersion.description
        c.captureToSignatureMs = r.captureToSignatureMs
        c.sensorIntervalCv = r.sensorIntervalCv
        if let p = r.poseTrace {
            c.poseTrace = .init(count: p.count, rateHz: p.rateHz, startOffsetMs: p.startOffsetMs)
        }
        if let m = r.mainsHz {
            c.mainsHz = m.hz
            c.mainsHzNote = m.note
            c.exposureDurationS = m.exposureDurationS
        }
        c.lens = r.lens.map { "\($0.camera) \(CaptureVerifier.number($0.focalLengthMm)) mm" }
        switch r.depth {
        case .map(let d)?: c.depth = "map \(d.width)x\(d.height) \(d.format) near \(CaptureVerifier.number(d.near)) m far \(CaptureVerifier.number(d.far)) m"
        case .absent(let reason)?: c.depth = "absent: \(reason)"
        case nil: c.depth = nil
        }
        c.secondViewBaselineMm = r.secondView?.baselineMm
        if let z = r.timeZone {
            c.timeZone = (z.identifier.map { $0 + " " } ?? "") + CaptureVerifier.offset(z.offsetMinutes)
        }
        report.context = c
        if let s = r.streamedChunks {
            report.streamedChunks = .init(state: "present", root: s.root, chunkSize: s.chunkSize,
                                          videoChunks: s.videoChunks, audioChunks: s.audioChunks)
        } else {
            report.streamedChunks = .init(state: "absent", root: nil, chunkSize: nil, videoChunks: nil, audioChunks: nil)
        }
        report.limits = CaptureLimits.statements(for: r)
    }

    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }

    static func offset(_ minutes: Int) -> String {
        let sign = minutes < 0 ? "-" : "+"
        let m = abs(minutes)
        return "UTC" + sign + String(format: "%02d:%02d", m / 60, m % 60)
    }
}
