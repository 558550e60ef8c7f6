import Crypto
import Foundation
import Ground
@testable import Media
import Synthesis
import TestLiterals
import Testing
@testable import Verify

/// `CaptureReport(strictJSON:)` reads a stored report exactly as `JSONDecoder` with `.iso8601`
/// dates reads it, or refuses (then `CaptureReport.decode` asks `JSONDecoder`): on every report
/// of a faulted capture-synth dump, with and without media measurements, on a report with every
/// field set, and on every one-byte change of a report.
@Suite struct StrictReportJSONTests {
    static func strict(_ bytes: [UInt8]) -> CaptureReport? { bytes.withUnsafeBytes { CaptureReport(strictJSON: $0) } }
    static func foundation(_ bytes: [UInt8]) -> CaptureReport? {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return try? d.decode(CaptureReport.self, from: Data(bytes))
    }

    /// The pending shape: every field but the analyses' own results.
    static func pendingShape() -> CaptureReport {
        var r = CaptureReportJSONTests.everyFieldSet()
        r.media = nil
        r.parallax = nil
        r.streamedChunks?.recomputation = nil
        r.timestamp.genTime = Date(timeIntervalSince1970: 1_764_567_779)
        return r
    }

    @Test func everyReportOfAFaultedDumpReadsAsJSONDecoderReadsIt() throws {
        let dump = try FaultedSynthDump(name: "strict-report", seed: 29)
        var verifier = dump.verifier
        let captures = dump.captures
        var strictRead = 0
        for measuresMedia in [false, true] {
            verifier.measuresMedia = measuresMedia
            for r in captures.map({ verifier.verify($0) }) {
                let bytes = r.jsonBytes()
                let theirs = try #require(Self.foundation(bytes))
                #expect(try CaptureReport.decode(Data(bytes)) == theirs)
                if let s = Self.strict(bytes) {
                    #expect(s == theirs, "\(r.path)")
                    strictRead += 1
                } else {
                    // Only a report holding the analyses' results is left to JSONDecoder.
                    #expect(r.media != nil || r.parallax != nil || r.streamedChunks?.recomputation != nil, "\(r.path)")
                }
                if !measuresMedia { #expect(Self.strict(bytes) != nil, "\(r.path)") }
            }
        }
        #expect(strictRead >= captures.count)
    }

    @Test func aReportWithEveryPendingFieldSetReadsAlike() throws {
        let r = Self.pendingShape()
        #expect(CaptureReportJSONTests.unsetOptionals(r, path: "report").sorted()
            == ["report.media", "report.parallax", "report.streamedChunks.recomputation"])
        let bytes = r.jsonBytes()
        #expect(Self.strict(bytes) == r)
        #expect(Self.foundation(bytes) == r)
        // Doubles and dates at the edges.
        var e = r
        for (i, v) in [0.0, 1.0, 0.5, 1e-7, 1.2345678901234568e17, 1e21, 1e16, 0.1 + 0.2, -3.25, 4503599627370496.0, .leastNonzeroMagnitude,
                       1.7976931348623157e308].enumerated() {
            e.context?.sensorIntervalCv = v
            e.context?.poseTrace?.rateHz = v == 0 ? 50 : -v // -0 is written `-0`, which the strict reader leaves to JSONDecoder
            e.size = [0, 1, UInt64(Int.max)][i % 3]
            let b = e.jsonBytes()
            #expect(Self.strict(b) == e, "\(v)")
            #expect(Self.foundation(b) == e, "\(v)")
        }
        for t in [0.0, 951_782_400, 1_764_567_779, 4_102_444_800, 253_402_300_799, 68_256_000, 1_078_012_800] as [TimeInterval] {
            e.timestamp.genTime = Date(timeIntervalSince1970: t)
            let b = e.jsonBytes()
            #expect(Self.strict(b) == e, "\(t)")
            #expect(Self.foundation(b) == e, "\(t)")
        }
    }

    /// Every one-byte change and deletion of a written report: whatever the strict reader
    /// accepts, `JSONDecoder` accepts with the same value.
    @Test func everyMutationIsReadAlikeOrRefused() throws {
        var r = Self.pendingShape()
        r.limits = ["a \"quoted\" limit\n"]
        let bytes = r.jsonBytes()
        var acceptedChanged = 0, refused = 0
        func check(_ m: [UInt8], _ what: String) {
            guard let s = Self.strict(m) else { refused += 1; return }
            #expect(Self.foundation(m) == s, "\(what)")
            if s != r { acceptedChanged += 1 }
        }
        let replacements: [UInt8] = [0x20, 0x22, 0x2b, 0x2c, 0x2d, 0x2e, 0x30, 0x31, 0x39, 0x3a, 0x45, 0x5c, 0x5d, 0x65, 0x6e, 0x7d]
        forEachOneByteMutation(of: bytes, replacements: replacements, check)
        #expect(acceptedChanged > 0 && refused > 0)
    }

    /// Outside the subset: refused, and `CaptureReport.decode` gives `JSONDecoder`'s value or error.
    @Test func outsideTheSubsetIsJSONDecoders() throws {
        let r = Self.pendingShape()
        let text = String(decoding: r.jsonBytes(), as: UTF8.self)
        let variants = [
            text.replacingOccurrences(of: #""genTime":"2025-12-01T05:42:59Z""#, with: #""genTime":"2025-12-01T05:42:59.5Z""#),
            text.replacingOccurrences(of: #""genTime":"2025-12-01T05:42:59Z""#, with: #""genTime":"2025-12-01T05:42:59+01:00""#),
            text.replacingOccurrences(of: #""genTime":"2025-12-01T05:42:59Z""#, with: #""genTime":"2025-02-30T05:42:59Z""#),
            text.replacingOccurrences(of: #""genTime":"2025-12-01T05:42:59Z""#, with: #""genTime":"1969-12-31T23:59:59Z""#),
            text.replacingOccurrences(of: #""sensorIntervalCv":0.0312"#, with: #""sensorIntervalCv":3.12E-2"#),
            text.replacingOccurrences(of: #""sensorIntervalCv":0.0312"#, with: #""sensorIntervalCv":.0312"#),
            text.replacingOccurrences(of: #""mainsHz":50"#, with: #""mainsHz":50.0"#),
            text.replacingOccurrences(of: #""mainsHz":50"#, with: #""mainsHz":null"#),
            text.replacingOccurrences(of: #""mainsHz":50"#, with: #""mainsHz":50,"mainsHz":60"#),
            text.replacingOccurrences(of: #""kind":"still""#, with: #""kind":"film""#),
            text.replacingOccurrences(of: #""kind":"still""#, with: #""kind":"still","media":[]"#),
            text.replacingOccurrences(of: #""chunkSize":"#, with: #""recomputation":{},"chunkSize":"#),
            text + "x",
        ]
        for v in variants {
            let bytes = Array(v.utf8)
            #expect(bytes != Array(text.utf8), "\(v)")
            #expect(Self.strict(bytes) == nil, "\(v)")
            let d = JSONDecoder()
            d.dateDecodingStrategy = .iso8601
            let theirs = Result { try d.decode(CaptureReport.self, from: Data(bytes)) }
            let ours = Result { try CaptureReport.decode(Data(bytes)) }
            switch (ours, theirs) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(v)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(v)")
            default: Issue.record("only one reader accepted \(v)")
            }
        }
    }
}

/// The parallax measurement is written directly; a non-finite number in it (which
/// `JSONEncoder` refuses) still makes the whole measurement `null`, as before.
@Suite struct ParallaxJSONTests {
    @Test func nonFiniteParallaxIsWrittenAsBefore() throws {
        var r = CaptureReportJSONTests.everyFieldSet()
        let finite = String(decoding: r.jsonBytes(), as: UTF8.self)
        #expect(finite.contains(#""parallax":{"detail":"d","gridPatches":40,"#))
        r.parallax?.matches[0].ncc = .nan
        #expect(String(decoding: r.jsonBytes(), as: UTF8.self).contains(#""parallax":null"#))
        r.parallax?.matches[0].ncc = 0.5
        r.parallax?.medianDisparityPx = .infinity
        #expect(String(decoding: r.jsonBytes(), as: UTF8.self).contains(#""parallax":null"#))
    }
}
