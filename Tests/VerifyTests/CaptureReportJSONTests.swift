import Crypto
import Foundation
import Ground
@testable import Media
import Synthesis
import TestLiterals
import Testing
@testable import Verify

/// `CaptureReport.jsonBytes()` writes exactly what `JSONEncoder` (sorted keys, unescaped
/// slashes, ISO 8601 dates) writes: on every report of a faulted capture-synth dump with media
/// measurements, on a report with every field set, and on strings and numbers at the edges.
@Suite struct CaptureReportJSONTests {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        return e
    }

    func expectSameAsEncoder(_ r: CaptureReport, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let want = String(decoding: try Self.encoder().encode(r), as: UTF8.self)
        let got = String(decoding: r.jsonBytes(), as: UTF8.self)
        #expect(got == want, "report \(r.path)", sourceLocation: sourceLocation)
    }

    @Test func everyReportOfAFaultedDumpMatchesJSONEncoder() throws {
        let dump = try FaultedSynthDump(name: "report-json", seed: 23)
        let reports = dump.captures.map { dump.verifier.verify($0) }
        #expect(reports.count >= SynthFault.allCases.count)
        // The dump exercises the optional parts: media facts, parallax, streamed chunks with a
        // recomputation, disclosure failures, sidecar notes, a TSA time.
        #expect(reports.contains { $0.parallax != nil })
        #expect(reports.contains { $0.streamedChunks?.recomputation != nil })
        #expect(reports.contains { $0.media?.contains { $0.facts?.streams.contains { $0.sampleRate != nil } == true } == true })
        #expect(reports.contains { $0.disclosure.contains { !$0.failures.isEmpty } })
        #expect(reports.contains { $0.sidecars.contains { !$0.notes.isEmpty } })
        #expect(reports.contains { $0.timestamp.genTime != nil })
        for r in reports { try expectSameAsEncoder(r) }
    }

    /// A report with every optional field set (checked by reflection, so a field added to the
    /// type but not to `jsonBytes()` or to this report fails here).
    @Test func aReportWithEveryFieldSetMatchesJSONEncoder() throws {
        let r = Self.everyFieldSet()
        #expect(Self.unsetOptionals(r, path: "report") == [])
        var bare = r
        bare.context?.poseTrace = nil
        bare.parallax = nil
        #expect(Self.unsetOptionals(bare, path: "report") == ["report.context.poseTrace", "report.parallax"])
        try expectSameAsEncoder(r)
    }

    @Test func stringsAndNumbersAtTheEdgesMatchJSONEncoder() throws {
        var r = Self.everyFieldSet()
        var all = ""
        for c in 0..<0x80 { all.unicodeScalars.append(Unicode.Scalar(UInt8(c))) }
        r.path = all + "é€😀\u{2028}/a/b"
        r.limits = ["\"quoted\" \\ back", "tab\tnew\nline", ""]
        for (i, v) in [0.0, -0.0, 1.0, 0.5, 1e-7, 1.2345678901234568e17, 1e21, 1e16, 0.1 + 0.2, -3.25, 4503599627370496.0].enumerated() {
            r.context?.sensorIntervalCv = v
            r.context?.captureToSignatureMs = [Int.min, -1, 0, Int.max][i % 4]
            r.size = [0, 1, UInt64.max][i % 3]
            try expectSameAsEncoder(r)
        }
        for t in [0.0, 1764567779.999, 1764567779.5, 1764567779.0001, 951782400.25] {
            r.timestamp.genTime = Date(timeIntervalSince1970: t)
            try expectSameAsEncoder(r)
        }
    }

    /// Paths of Optional properties that are nil, walking into nested values and first elements.
    static func unsetOptionals(_ value: Any, path: String) -> [String] {
        var out: [String] = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            let m = Mirror(reflecting: child.value)
            if m.displayStyle == .optional {
                guard let inner = m.children.first?.value else { out.append(path + "." + label); continue }
                out += unsetOptionals(inner, path: path + "." + label)
            } else if m.displayStyle == .collection {
                if let first = m.children.first?.value { out += unsetOptionals(first, path: path + "." + label + "[0]") }
            } else if m.displayStyle == .struct {
                out += unsetOptionals(child.value, path: path + "." + label)
            }
        }
        return out
    }

    static func everyFieldSet() -> CaptureReport {
        var r = CaptureReport(path: "/dump/captures/c1/IMG_1.jpg", kind: "still", integrity: .tampered,
                              timestamp: .init(state: "validated", genTime: Date(timeIntervalSince1970: 1764567779.25), header: "sigTst2"))
        r.sha256 = id(String(repeating: "ab", count: 32))
        r.size = 232_487
        r.recordId = id(String(repeating: "cd", count: 32))
        r.signer = .init(keyFingerprint: id(String(repeating: "ef", count: 32)), subject: "CN=Device", issuer: "CN=CA",
                         algorithm: "es256", trust: .trusted)
        r.captureTime = "2026-11-30T14:03:27.123Z"
        r.timeRung = "exact-ms"
        let status = C2PAReport.Status(code: "assertion.dataHash.mismatch", url: "self#jumbf=c2pa/x", explanation: "hash differs")
        r.statusCodes = .init(success: [status], informational: [status], failure: [status])
        r.sidecars = [.init(sink: "audio", state: "mismatch", committedSha256: id(String(repeating: "00", count: 32)), actualSha256: id(String(repeating: "11", count: 32)),
                            file: "captures/c1/evidence/audio.caf",
                            recordedPath: "/var/mobile/audio.caf", notes: ["symlink"])]
        r.unreferenced = ["stray.txt"]
        r.disclosure = [.init(file: "bundle-short.json", profile: "short", result: "failed",
                              failures: [.init(label: "leaf-mismatch", claimId: "location.city", detail: "salted hash differs")],
                              openedLeaves: 3, withheldCount: 9)]
        var chunks = CaptureReport.StreamedChunks(state: "present", root: id(String(repeating: "ff", count: 32)), chunkSize: 1 << 20, videoChunks: 12, audioChunks: 3)
        chunks.recomputation = ChunkRecomputation(state: .recomputed, ordersTried: 2, order: "base",
                                                  videoChunks: .init(computed: 12, recorded: 12), audioChunks: .init(computed: 3, recorded: 3),
                                                  rootRecorded: id(String(repeating: "ff", count: 32)), rootComputed: id(String(repeating: "fe", count: 32)), findings: [])
        r.streamedChunks = chunks
        var context = CaptureReport.Context()
        context.appVersion = "0.25.3"
        context.captureToSignatureMs = 2310
        context.sensorIntervalCv = 0.0312
        context.poseTrace = .init(count: 150, rateHz: 50, startOffsetMs: -500)
        context.mainsHz = 50
        context.mainsHzNote = "region-derived"
        context.exposureDurationS = 0.01
        context.lens = "telephoto 6.86 mm"
        context.depth = "map 640x480"
        context.secondViewBaselineMm = 12.5
        context.timeZone = "Europe/Berlin"
        r.context = context
        r.limits = ["all-signals: self-reported"]
        r.files = [.init(role: "media", path: "/dump/captures/c1/IMG_1.jpg", relativePath: "IMG_1.jpg", sha256: id(String(repeating: "ab", count: 32)), size: 232_487)]
        r.error = .init(code: "io.read", message: "short read")
        r.container = "jpeg"
        r.activeManifest = "urn:c2pa:1"
        r.c2paReason = "none"
        r.recordAssertion = "present"
        r.contextTree = "present"
        r.recordError = .init(code: "record.cbor", message: "bad")
        r.ringRejected = ["frame-x.txt"]
        var stream = MediaFacts.Stream(index: 0, type: "audio", codec: "pcm_s16le", profile: "LC")
        stream.width = 4; stream.height = 3; stream.frameRate = 29.97; stream.durationSeconds = 1.5; stream.bitRate = 256_000
        stream.sampleRate = 16_000; stream.channels = 1; stream.bitsPerSample = 16; stream.frameCount = 24_000
        let facts = MediaFacts(container: "caf", durationSeconds: 1.5, bitRate: 256_000, size: 48_000, streams: [stream], streamInfoProbed: false)
        r.media = [.init(role: "audio", file: "evidence/audio.caf", facts: facts, error: .init(code: "media.open", message: "x"))]
        r.parallax = ParallaxMeasurement(state: .measured, reason: .tooFewMatchedPatches, detail: "d", matchedPatches: 20,
                                         medianDisparityPx: 7.5, texturedPatches: 30, gridPatches: 40,
                                         matches: [.init(x: 1, y: 2, disparityPx: 7, ncc: 0.93)])
        return r
    }
}
