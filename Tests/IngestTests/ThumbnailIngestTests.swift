import CAS
import Foundation
import Ground
import Ingest
import Media
import Query
import Synthesis
import TestLiterals
import Testing
import Verify

/// Ingest stores a thumbnail of each new record's delivery file as a derived blob: in the CAS,
/// listed in `IndexedRecord.derived`, never in `files` or `variants`; garbage gives a finding.
@Suite struct ThumbnailIngestTests {
    @Test func newRecordsGetAStoredThumbnail() throws {
        let root = DumpFixture.scratch("thumbs") + "/dump"
        let options = SynthOptions(stills: 2, videos: 1, seed: 3, videoSeconds: 1, faults: [.rewrapped],
                                   concurrency: 2, stillWidth: 640, stillHeight: 480)
        let expected = try DumpSynthesizer(options: options).write(to: root)
        _ = FileManager.default.createFile(atPath: root + "/captures/IMG_GARBAGE.jpg", contents: Data("not a picture".utf8))
        let archive = try DumpFixture.archive()
        var o = Ingestor.Options()
        o.jobs = 2
        o.agent = DumpFixture.agent
        let ingestor = Ingestor(archive: try archive.archive(), verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none), options: o)
        let (captures, errors) = Ingestor.discover([root])
        #expect(errors.isEmpty)
        var items: [IngestItem] = []
        let summary = try ingestor.run(captures) { items.append($0) }
        #expect(summary.outcomes["failed", default: 0] == 0)

        var thumbs = 0
        for c in expected.captures {
            let item = try #require(items.first { $0.path == root + "/" + c.deliveryFile }, "\(c.id)")
            let itemId = try #require(item.recordId)
            let record = try #require(try archive.index.get(recordId: itemId))
            let derived = record.derived ?? []
            // One thumbnail per record, of the variant that made the record (a re-wrapped twin is a
            // variant and adds none).
            #expect(derived.count == 1, "\(c.id): \(derived)")
            let d = try #require(derived.first)
            #expect(d.kind == "thumbnail" && d.mediaType == "image/jpeg" && d.finding == nil, "\(c.id): \(d)")
            // A still's thumbnail is libjpeg-turbo's (decoded and encoded by it); a video's libavcodec's.
            #expect(d.tool == (c.kind == "still" ? "libjpeg-turbo 2.1.5 tjCompressFromYUVPlanes q=80" : Thumbnail.libavTool), "\(c.id): \(d.tool)")
            #expect(c.kind == "still" ? d.tool.hasPrefix("libjpeg-turbo ") : d.tool.hasPrefix("libavcodec mjpeg "))
            #expect(record.variants.first?.blobId == d.sourceBlobId)
            let blobId = try #require(d.blobId)
            #expect(!record.files.contains { $0.blobId == blobId } && !record.variants.contains { $0.blobId == blobId })
            #expect(!item.report.files.contains { $0.sha256 == blobId })
            let bytes = try archive.store.bytes(of: blobId)
            #expect(UInt64(bytes.count) == d.size)
            #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9], "JPEG SOI/EOI")
            // Decodes as a JPEG of the stated size, at most 320 wide, with the source's aspect.
            let facts = try MediaFacts.read(source: MemoryByteSource(bytes))
            let picture = try #require(facts.streams.first { $0.type == "video" })
            #expect(picture.codec == "mjpeg")
            #expect(picture.width == d.width && picture.height == d.height)
            let w = try #require(d.width), h = try #require(d.height)
            #expect(w <= 320 && w >= 2 && h >= 2)
            // The same picture the Media module makes from the delivery file, byte for byte.
            if d.sourceBlobId == item.report.sha256 {
                let direct = try Thumbnail.make(path: root + "/" + c.deliveryFile)
                #expect(direct.jpeg == bytes, "\(c.id)")
                #expect(direct.sourceWidth > 320 ? w == 320 : w == direct.sourceWidth & ~1)
                if c.kind == "still" { #expect(w == 320 && h == 240, "\(c.id) \(w)x\(h)") }
            }
            thumbs += 1
        }
        #expect(thumbs == expected.captures.count)
        #expect(expected.captures.contains { $0.kind == "video" })

        // Garbage: a derived entry with a media finding, no blob.
        let junk = try #require(items.first { $0.path.hasSuffix("IMG_GARBAGE.jpg") })
        #expect(junk.outcome == .new)
        let junkId = try #require(junk.recordId)
        let junkRecord = try #require(try archive.index.get(recordId: junkId))
        let jd = try #require(junkRecord.derived?.first)
        #expect(junkRecord.derived?.count == 1)
        #expect(jd.blobId == nil && jd.size == nil && jd.width == nil)
        #expect(jd.sourceBlobId == junk.report.sha256)
        #expect(jd.finding?.hasPrefix("media.") == true, "\(jd)")

        // gc keeps derived blobs (they are blob records, like evidence) and audit checks them.
        let before = try archive.store.stats().blobs
        _ = try archive.store.collectGarbage()
        #expect(try archive.store.stats().blobs == before)
        let audit = try archive.store.audit()
        #expect(audit.isClean && audit.blobsChecked == before)
        let records = try archive.index.records(try archive.index.query(RecordFilter()).matches)
        for r in records {
            for d in r.derived ?? [] {
                if let b = d.blobId { #expect(try archive.store.bytes(of: b).count > 0) }
            }
        }

        // Re-ingest: nothing made, nothing written, derived entries unchanged.
        var again: [IngestItem] = []
        let againSummary = try ingestor.run(captures) { again.append($0) }
        #expect(again.allSatisfy { $0.outcome == .present })
        #expect(againSummary.newBlobs == 0)
        #expect(try archive.store.stats().blobs == before)
        let after = try archive.index.records(try archive.index.query(RecordFilter()).matches)
        #expect(after.map(\.derived) == records.map(\.derived))

        // Every file streamed (nothing inline): decoded from the file instead of the staged
        // bytes, the same thumbnails.
        let streamed = try DumpFixture.archive()
        o.inlineFileLimit = 0
        _ = try Ingestor(archive: try streamed.archive(), verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none), options: o)
            .run(captures) { _ in }
        let streamedRecords = try streamed.index.records(records.map(\.recordId))
        #expect(streamedRecords.map(\.derived) == records.map(\.derived))
    }
}
