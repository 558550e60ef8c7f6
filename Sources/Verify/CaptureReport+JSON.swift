import Foundation
import Ground
import Media

extension CaptureReport {
    /// The report as `verify --json` prints it and ingest stores it: JSON with sorted keys,
    /// unescaped slashes and ISO 8601 dates — exactly the bytes `JSONEncoder` writes with those
    /// options (pinned by `CaptureReportJSONTests`), written directly. Absent optionals are
    /// omitted. Keys are listed here in sorted order; a field added to the type must be added
    /// here too (the test fails until it is).
    public func jsonBytes() -> [UInt8] {
        var w = JSONText(capacity: 4096)
        w.beginObject()
        w.field("activeManifest", activeManifest)
        w.field("c2paReason", c2paReason)
        w.field("captureTime", captureTime)
        w.field("container", container)
        if let context { w.key("context"); Self.write(context, &w) }
        w.field("contextTree", contextTree)
        w.key("disclosure"); w.array(disclosure, Self.write)
        if let error { w.key("error"); Self.write(error, &w) }
        w.key("files"); w.array(files, Self.write)
        w.field("integrity", integrity.rawValue)
        w.field("kind", kind)
        w.field("limits", limits)
        if let media { w.key("media"); w.array(media, Self.write) }
        if let parallax { w.key("parallax"); Self.write(parallax, &w) }
        w.field("path", path)
        w.field("recordAssertion", recordAssertion)
        if let recordError { w.key("recordError"); Self.write(recordError, &w) }
        w.field("recordId", recordId)
        w.field("ringRejected", ringRejected)
        w.field("sha256", sha256)
        w.key("sidecars"); w.array(sidecars, Self.write)
        if let signer { w.key("signer"); Self.write(signer, &w) }
        w.field("size", size)
        w.key("statusCodes"); Self.write(statusCodes, &w)
        if let streamedChunks { w.key("streamedChunks"); Self.write(streamedChunks, &w) }
        w.field("timeRung", timeRung)
        w.key("timestamp"); Self.write(timestamp, &w)
        w.field("unreferenced", unreferenced)
        w.endObject()
        return w.bytes
    }

    static func write(_ c: Context, _ w: inout JSONText) {
        w.beginObject()
        w.field("appVersion", c.appVersion)
        w.field("captureToSignatureMs", c.captureToSignatureMs)
        w.field("depth", c.depth)
        w.field("exposureDurationS", c.exposureDurationS)
        w.field("lens", c.lens)
        w.field("mainsHz", c.mainsHz)
        w.field("mainsHzNote", c.mainsHzNote)
        if let p = c.poseTrace {
            w.key("poseTrace")
            w.beginObject()
            w.field("count", p.count)
            w.field("rateHz", p.rateHz)
            w.field("startOffsetMs", p.startOffsetMs)
            w.endObject()
        }
        w.field("secondViewBaselineMm", c.secondViewBaselineMm)
        w.field("sensorIntervalCv", c.sensorIntervalCv)
        w.field("timeZone", c.timeZone)
        w.endObject()
    }

    static func write(_ d: Disclosure, _ w: inout JSONText) {
        w.beginObject()
        w.key("failures")
        w.array(d.failures) { f, w in
            w.beginObject()
            w.field("claimId", f.claimId)
            w.field("detail", f.detail)
            w.field("label", f.label)
            w.endObject()
        }
        w.field("file", d.file)
        w.field("openedLeaves", d.openedLeaves)
        w.field("profile", d.profile)
        w.field("result", d.result)
        w.field("withheldCount", d.withheldCount)
        w.endObject()
    }

    static func write(_ e: ItemError, _ w: inout JSONText) {
        w.beginObject()
        w.field("code", e.code)
        w.field("message", e.message)
        w.endObject()
    }

    static func write(_ f: File, _ w: inout JSONText) {
        w.beginObject()
        w.field("path", f.path)
        w.field("relativePath", f.relativePath)
        w.field("role", f.role)
        w.field("sha256", f.sha256)
        w.field("size", f.size)
        w.endObject()
    }

    static func write(_ m: MediaFile, _ w: inout JSONText) {
        w.beginObject()
        if let error = m.error { w.key("error"); write(error, &w) }
        if let facts = m.facts { w.key("facts"); write(facts, &w) }
        w.field("file", m.file)
        w.field("role", m.role)
        w.endObject()
    }

    static func write(_ f: MediaFacts, _ w: inout JSONText) {
        w.beginObject()
        w.field("bitRate", f.bitRate)
        w.field("container", f.container)
        w.field("durationSeconds", f.durationSeconds)
        w.field("size", f.size)
        w.field("streamInfoProbed", f.streamInfoProbed)
        w.key("streams")
        w.array(f.streams) { s, w in
            w.beginObject()
            w.field("bitRate", s.bitRate)
            w.field("bitsPerSample", s.bitsPerSample)
            w.field("channels", s.channels)
            w.field("codec", s.codec)
            w.field("durationSeconds", s.durationSeconds)
            w.field("frameCount", s.frameCount)
            w.field("frameRate", s.frameRate)
            w.field("height", s.height)
            w.field("index", s.index)
            w.field("profile", s.profile)
            w.field("sampleRate", s.sampleRate)
            w.field("type", s.type)
            w.field("width", s.width)
            w.endObject()
        }
        w.endObject()
    }

    /// Written directly (every analysed still has one; `JSONEncoder` was most of `jsonBytes()`'s
    /// cost in `analyze`); a non-finite number, which `JSONEncoder` refuses, goes through it as before.
    static func write(_ p: ParallaxMeasurement, _ w: inout JSONText) {
        guard (p.medianDisparityPx ?? 0).isFinite, p.noiseFloorPx.isFinite, p.matches.allSatisfy({ $0.ncc.isFinite }) else {
            w.encodable(p)
            return
        }
        w.beginObject()
        w.field("detail", p.detail)
        w.field("gridPatches", p.gridPatches)
        w.field("matchedPatches", p.matchedPatches)
        w.key("matches")
        w.array(p.matches) { m, w in
            w.beginObject()
            w.field("disparityPx", m.disparityPx)
            w.field("ncc", m.ncc)
            w.field("x", m.x)
            w.field("y", m.y)
            w.endObject()
        }
        w.field("medianDisparityPx", p.medianDisparityPx)
        w.field("noiseFloorPx", p.noiseFloorPx)
        w.field("raster", p.raster)
        w.field("reason", p.reason)
        w.field("searchWindowPx", p.searchWindowPx)
        w.field("state", p.state)
        w.field("texturedPatches", p.texturedPatches)
        w.endObject()
    }

    static func write(_ s: Sidecar, _ w: inout JSONText) {
        w.beginObject()
        w.field("actualSha256", s.actualSha256)
        w.field("committedSha256", s.committedSha256)
        w.field("file", s.file)
        w.field("notes", s.notes)
        w.field("recordedPath", s.recordedPath)
        w.field("sink", s.sink)
        w.field("state", s.state)
        w.endObject()
    }

    static func write(_ s: Signer, _ w: inout JSONText) {
        w.beginObject()
        w.field("algorithm", s.algorithm)
        w.field("issuer", s.issuer)
        w.field("keyFingerprint", s.keyFingerprint)
        w.field("subject", s.subject)
        w.field("trust", s.trust.rawValue)
        w.endObject()
    }

    static func write(_ c: StatusCodes, _ w: inout JSONText) {
        w.beginObject()
        w.key("failure"); w.array(c.failure, write)
        w.key("informational"); w.array(c.informational, write)
        w.key("success"); w.array(c.success, write)
        w.endObject()
    }

    static func write(_ s: C2PAReport.Status, _ w: inout JSONText) {
        w.beginObject()
        w.field("code", s.code)
        w.field("explanation", s.explanation)
        w.field("url", s.url)
        w.endObject()
    }

    static func write(_ s: StreamedChunks, _ w: inout JSONText) {
        w.beginObject()
        w.field("audioChunks", s.audioChunks)
        w.field("chunkSize", s.chunkSize)
        if let r = s.recomputation { w.key("recomputation"); w.encodable(r) }
        w.field("root", s.root)
        w.field("state", s.state)
        w.field("videoChunks", s.videoChunks)
        w.endObject()
    }

    static func write(_ t: C2PAReport.Timestamp, _ w: inout JSONText) {
        w.beginObject()
        if let g = t.genTime { w.key("genTime"); w.date(g) }
        w.field("header", t.header)
        w.field("state", t.state)
        w.endObject()
    }
}
