import Foundation
import Verify

extension VerifyCommand {
    /// The human-readable block for one capture: facts, one per line, then a blank line.
    /// Every value is escaped (`TerminalText`) before the lines are joined, so a name holding a
    /// newline stays on its own line.
    static func text(_ r: CaptureReport) -> String {
        var lines = [TerminalText.escape(r.path)]
        func add(_ key: String, _ value: String) {
            lines.append("  " + (TerminalText.escape(key) + ":").padding(toLength: 21, withPad: " ", startingAt: 0) + TerminalText.escape(value))
        }
        if let e = r.error {
            add("error", "\(e.code): \(e.message)")
            return lines.joined(separator: "\n") + "\n\n"
        }
        var integrity = r.integrity.rawValue
        if let reason = r.c2paReason, r.integrity == .unsigned || r.integrity == .malformed { integrity += " (\(reason))" }
        add("integrity", integrity)
        if let s = r.signer {
            add("signer", "\(s.subject) (issuer \(s.issuer)); \(s.trust.rawValue)")
            add("key", s.keyFingerprint.hex + (s.algorithm.map { " \($0)" } ?? ""))
        }
        var ts = r.timestamp.state
        if let t = r.timestamp.genTime { ts += " " + ISO8601DateFormatter().string(from: t) }
        add("timestamp", ts)
        add("kind", r.kind.rawValue + (r.sha256.map { " sha256 \($0)" } ?? ""))
        if let t = r.captureTime { add("capture time", "\(t) @ \(r.timeRung ?? "?")") }
        if let a = r.recordAssertion, a != "present" {
            add("record", a + (r.recordError.map { " (\($0.code): \($0.message))" } ?? ""))
        }
        if let c = r.context {
            var facts: [String] = []
            if let v = c.appVersion { facts.append("app \(v)") }
            if let v = c.captureToSignatureMs { facts.append("captureToSignatureMs \(v)") }
            if let v = c.sensorIntervalCv { facts.append("intervalCv \(v)") }
            if let p = c.poseTrace { facts.append("poseTrace \(p.count) samples @ \(p.rateHz) Hz from \(p.startOffsetMs) ms") }
            if let v = c.mainsHz { facts.append("mainsHz \(v) \(c.mainsHzNote ?? "")".trimmingCharacters(in: .whitespaces)) }
            if let v = c.lens { facts.append("lens \(v)") }
            if let v = c.depth { facts.append("depth \(v)") }
            add("context", facts.joined(separator: "; "))
        }
        for s in r.sidecars {
            var v = s.state.rawValue
            if let f = s.file { v += " " + short(f) }
            if !s.notes.isEmpty { v += " [" + s.notes.joined(separator: ", ") + "]" }
            add("sidecar " + s.sink.rawValue, v)
        }
        for u in r.unreferenced { add("unreferenced", u) }
        for d in r.disclosure {
            var v = "\(short(d.file)) \(d.profile.isEmpty ? "?" : d.profile) \(d.result) (\(d.openedLeaves) opened, \(d.withheldCount) withheld)"
            if !d.failures.isEmpty { v += ": " + d.failures.map { $0.label + ($0.claimId.map { " " + $0 } ?? "") }.joined(separator: ", ") }
            add("disclosure", v)
        }
        if let c = r.streamedChunks {
            add("streamed chunks", c.state == "present"
                ? "present root \(c.root?.hex ?? "?") (\(c.videoChunks ?? 0) video, \(c.audioChunks ?? 0) audio chunks)"
                : "absent")
            if let rc = c.recomputation {
                var v = "\(rc.state.rawValue) (\(rc.ordersTried) orders tried"
                if let o = rc.order { v += "; order \(o)" }
                v += ")"
                if !rc.findings.isEmpty { v += ": " + rc.findings.map(\.code).joined(separator: ", ") }
                add("chunk recomputation", v)
            }
        }
        if let p = r.parallax {
            var v = p.state.rawValue
            if let m = p.matchedPatches { v += ", \(m) of \(p.gridPatches) patches matched" }
            if let d = p.medianDisparityPx { v += ", median disparity \(d) px at \(p.raster) (noise floor ±\(Int(p.noiseFloorPx)) px)" }
            if let reason = p.reason { v += " (\(reason.rawValue))" }
            add("parallax", v)
        }
        for m in (r.media ?? []) where m.role == .media || m.role == .audio {
            if let f = m.facts {
                let streams = f.streams.map { s in
                    [s.type, s.codec, s.width.map { "\($0)x\(s.height ?? 0)" }, s.sampleRate.map { "\($0) Hz" },
                     s.channels.map { "\($0) ch" }].compactMap { $0 }.joined(separator: " ")
                }.joined(separator: "; ")
                var v = "\(short(m.file)) \(f.container): \(streams)"
                if let d = f.durationSeconds, m.role != .media || r.kind == .video { v += String(format: ", %.2f s", d) }
                add("media " + m.role.rawValue, v)
            } else if let e = m.error {
                add("media " + m.role.rawValue, "\(short(m.file)) unreadable (\(e.code))")
            }
        }
        for f in r.statusCodes.failure { add("failure", f.code + (f.explanation.map { " (\($0))" } ?? "")) }
        for i in r.statusCodes.informational { add("note", i.code + (i.explanation.map { " (\($0))" } ?? "")) }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// A path inside a capture folder, from its `evidence/` or `disclosure/` on (the block's
    /// first line names the capture).
    static func short(_ path: String) -> String {
        for marker in ["/evidence/", "/disclosure/"] {
            if let r = path.range(of: marker, options: .backwards) { return String(path[path.index(after: r.lowerBound)...]) }
        }
        return path
    }
}
