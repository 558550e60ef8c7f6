import Foundation
import Ground
@testable import Query
import TestLiterals
import Testing

/// Record bodies are written by `IndexedRecord.jsonBytes()` and read by
/// `IndexedRecord(strictJSON:)`: the writer must give exactly `JSONEncoder`'s bytes (sorted keys,
/// `/` escaped), and the reader must read exactly what `JSONDecoder` reads, or refuse (then
/// `RecordBody.decode` asks `JSONDecoder`, whose values and error texts stand).
@Suite struct RecordBodyJSONTests {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }

    static func strict(_ bytes: [UInt8]) -> IndexedRecord? { bytes.withUnsafeBytes { IndexedRecord(strictJSON: $0) } }
    static func foundation(_ bytes: [UInt8]) -> IndexedRecord? { try? JSONDecoder().decode(IndexedRecord.self, from: Data(bytes)) }

    /// A record with every optional set, in the stored form (`reportJSON` empty).
    static func everyFieldSet() -> IndexedRecord {
        var r = record(7, trust: "untrusted", sidecars: ["audio": "verified", "second-view": "mismatch", "sensors": "never-recorded",
                                                         "ring": "missing", "depth": "failed"], variants: 2)
        r.tsaTime = "2026-11-30T14:05:07Z"
        r.failureCodes = ["assertion.dataHash.mismatch", "claimSignature.mismatch"]
        r.reportJSON = Data()
        r.files.append(.init(role: "second-view", relativePath: "evidence/second-view.jpg", blobId: hexID(7, salt: 5), size: 155_000))
        r.derived = [DerivedBlob(kind: "thumbnail", blobId: hexID(7, salt: 6), size: 7036, mediaType: "image/jpeg", width: 320, height: 240,
                                 sourceBlobId: hexID(7, salt: 77), tool: "libavcodec mjpeg 59.37.100", finding: nil),
                     DerivedBlob(kind: "thumbnail", blobId: nil, size: nil, mediaType: nil, width: nil, height: nil,
                                 sourceBlobId: hexID(7, salt: 78), tool: "libavcodec mjpeg 59.37.100",
                                 finding: "media.decodeFailed: \"x\" / y")]
        var v = IndexedRecord.SidecarVariant(sink: "audio", state: "mismatch", actualSha256: hexID(7, salt: 9),
                                             sourcePath: "dump/captures/c7 copy/IMG_7.jpg", firstIngested: "2026-12-01T00:00:01Z")
        v.reportId = hexID(7, salt: 10)
        r.sidecarVariants = [v, .init(sink: "ring", state: "missing", actualSha256: nil, sourcePath: "dump/b/IMG_7.jpg",
                                      firstIngested: "2026-12-01T00:00:02Z")]
        r.analyses = RecordAnalyses(state: .done, tool: "exhibit-archive 0.5.0",
                                    libraries: ["libav": "libavutil.so.57 libswscale.so.6", "libavcodec": "59.37.100", "libjpeg-turbo": "2.1.5"],
                                    deliveryPath: "/dump/captures/c7/IMG_7.jpg")
        return r
    }

    static func shapes() -> [IndexedRecord] {
        var bare = record(1, trust: nil, key: nil, time: nil)
        bare.reportJSON = Data()
        var pending = record(2, sidecars: ["audio": "verified"])
        pending.reportJSON = Data()
        pending.analyses = .pending(deliveryPath: "/dump/a/IMG_2.jpg")
        var edges = everyFieldSet()
        var all = ""
        for c in 0..<0x80 { all.unicodeScalars.append(Unicode.Scalar(UInt8(c))) }
        edges.variants[0].sourcePaths = [all + "é€😀\u{2028}/a/b", "", "\"q\" \\ / //"]
        edges.files[0].size = UInt64.max
        edges.derived?[0].width = Int.min
        edges.derived?[0].height = 0
        edges.analyses?.libraries = ["B": "1", "a10": "2", "a9": "3", "_x": "4", "a": "", "é": "5", "a-b": "6", "ab": "7", "A": "8"]
        var withReport = everyFieldSet()
        withReport.reportJSON = Data("{\"path\":\"/x\"}".utf8)
        return [bare, pending, everyFieldSet(), edges, withReport]
    }

    @Test func writtenBytesAreJSONEncoders() throws {
        for r in Self.shapes() {
            let want = String(decoding: try Self.encoder().encode(r), as: UTF8.self)
            #expect(String(decoding: r.jsonBytes(), as: UTF8.self) == want)
        }
        // Every optional of the fixture is set, so each is written once above.
        let r = Self.everyFieldSet()
        #expect(r.trust != nil && r.keyFingerprint != nil && r.captureTime != nil && r.tsaTime != nil)
        #expect(r.derived?.first?.blobId != nil && r.derived?.last?.finding != nil && r.sidecarVariants?.first?.reportId != nil)
        #expect(r.analyses?.tool != nil && r.analyses?.libraries != nil && r.analyses?.deliveryPath != nil)
    }

    @Test func writtenBodiesReadAsJSONDecoderReadsThem() throws {
        for r in Self.shapes() {
            let bytes = r.jsonBytes()
            let foundation = try #require(Self.foundation(bytes))
            #expect(foundation == r)
            // Control characters are written as `\u00XX`, which the strict reader leaves to JSONDecoder.
            let controls = r.variants.contains { $0.sourcePaths.contains { $0.utf8.contains { $0 < 0x20 } } }
            if r.reportJSON.isEmpty {
                #expect(Self.strict(bytes) == (controls ? nil : r))
                // Also without escaped slashes, and pretty-printed (whitespace where JSON allows it).
                let e = JSONEncoder()
                e.outputFormatting = [.withoutEscapingSlashes, .prettyPrinted]
                let other = [UInt8](try e.encode(r))
                #expect(Self.strict(other) == (controls ? nil : r))
                if controls {
                    var plain = r
                    plain.variants[0].sourcePaths = plain.variants[0].sourcePaths.map { String($0.unicodeScalars.filter { $0.value >= 0x20 }) }
                    #expect(Self.strict(plain.jsonBytes()) == plain)
                    #expect(Self.foundation(plain.jsonBytes()) == plain)
                }
            } else {
                #expect(Self.strict(bytes) == nil) // a report inside: JSONDecoder's (the migration's form)
            }
        }
    }

    /// Every one-byte change and deletion of a written body: whatever the strict reader accepts,
    /// `JSONDecoder` accepts with the same value.
    @Test func everyMutationIsReadAlikeOrRefused() throws {
        let r = Self.everyFieldSet()
        let bytes = r.jsonBytes()
        var acceptedChanged = 0, refused = 0
        func check(_ m: [UInt8], _ what: String) {
            guard let s = Self.strict(m) else { refused += 1; return }
            #expect(Self.foundation(m) == s, "\(what)")
            if s != r { acceptedChanged += 1 }
        }
        let replacements: [UInt8] = [0x00, 0x20, 0x22, 0x2c, 0x2f, 0x30, 0x31, 0x39, 0x3a, 0x41, 0x5c, 0x5d, 0x61, 0x66, 0x6e, 0x7d, 0xc3]
        forEachOneByteMutation(of: bytes, replacements: replacements, check)
        #expect(acceptedChanged > 0 && refused > 0)
    }

    /// Outside the subset: refused by the strict reader, and `RecordBody.decode` answers as
    /// `JSONDecoder` does (value or `index.record.damaged` with its error text).
    @Test func outsideTheSubsetIsJSONDecoders() throws {
        let r = Self.everyFieldSet()
        let text = String(decoding: r.jsonBytes(), as: UTF8.self)
        let variants = [
            text.replacingOccurrences(of: #""size":100"#, with: #""size":100.0"#),
            text.replacingOccurrences(of: #""size":100"#, with: #""size":1e2"#),
            text.replacingOccurrences(of: #""size":100"#, with: #""size":-100"#),
            text.replacingOccurrences(of: #""kind":"still""#, with: #""kind":"st\u0069ll""#),
            text.replacingOccurrences(of: #""kind":"still""#, with: #""kind":"film""#),
            text.replacingOccurrences(of: #""kind":"still""#, with: #""kind":"still","kind":"still""#),
            text.replacingOccurrences(of: #""kind":"still""#, with: #""kind":"still","extra":true"#),
            text.replacingOccurrences(of: #""trust":"untrusted""#, with: #""trust":null"#),
            text.replacingOccurrences(of: #""reportJSON":"""#, with: #""reportJSON":"e30=""#),
            text.replacingOccurrences(of: #""sidecars":{"#, with: #""sidecars":{"gps":"verified","#),
            text.replacingOccurrences(of: #""recordId":""#, with: #""recordId":"A"#),
            "\u{FEFF}" + text,
            text + " x",
            String(text.dropLast()),
        ]
        for v in variants {
            let bytes = Array(v.utf8)
            #expect(bytes != Array(text.utf8), "\(v)")
            #expect(Self.strict(bytes) == nil, "\(v)")
            let body = [RecordBody.version] + ContentID(of: r.reportId.bytes + bytes).bytes + r.reportId.bytes + bytes
            let theirs = Result { try JSONDecoder().decode(IndexedRecord.self, from: Data(bytes)) }
            let ours = Result { try body.withUnsafeBytes { try RecordBody.decode($0, id: r.recordId) }.record }
            switch (ours, theirs) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(v)")
            case (.failure(let a), .failure(let b)):
                #expect(a as? QueryError == QueryError.damagedRecord(recordId: r.recordId, reason: "\(b)"), "\(v)")
            default: Issue.record("only one reader accepted \(v)")
            }
        }
    }

    /// A stored body round-trips through `RecordBody` with the strict reader.
    @Test func storedBodiesRoundTrip() throws {
        for r in Self.shapes() {
            let body = try RecordBody.encode(r)
            let decoded = try body.withUnsafeBytes { try RecordBody.decode($0, id: r.recordId) }
            var bare = r
            bare.reportJSON = Data()
            #expect(decoded.record == bare)
            #expect(decoded.reportId == r.reportId)
        }
    }
}
