import CAS
import Foundation
import Ground
import Ingest
import Query
import TestLiterals
import Testing
import Verify

/// Bad input never stops a batch: every item becomes a record with its state or error.
@Suite struct BadInputTests {
    @Test func garbageAndSymlinksBecomeRecords() throws {
        let root = DumpFixture.scratch("bad") + "/dump"
        let folder = root + "/captures/x"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let garbage = Array("not a jpeg at all".utf8)
        _ = FileManager.default.createFile(atPath: root + "/captures/IMG_1.jpg", contents: Data(garbage))
        _ = FileManager.default.createFile(atPath: root + "/captures/IMG_2.jpg", contents: Data([0xFF, 0xD8, 0xFF, 0xD9]))
        try FileManager.default.createSymbolicLink(atPath: folder + "/IMG_3.jpg", withDestinationPath: "/etc/hostname")
        let archive = try DumpFixture.archive()
        var options = Ingestor.Options()
        options.agent = DumpFixture.agent
        let ingestor = Ingestor(archive: try archive.archive(), verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none), options: options)
        let (captures, errors) = Ingestor.discover([root, root + "/does-not-exist"])
        #expect(errors.count == 1 && errors[0].hasPrefix("discover.notFound"))
        #expect(captures.count == 3)
        var items: [IngestItem] = []
        let summary = try ingestor.run(captures) { items.append($0) }
        #expect(items.count == 3)
        #expect(items.allSatisfy { $0.outcome == .new })
        #expect(summary.attention == 3)
        #expect(!summary.isClean || summary.attention > 0)
        let link = try #require(items.first { $0.path.hasSuffix("IMG_3.jpg") })
        #expect(link.report.error?.code == "verify.symlink")
        #expect(link.report.files.isEmpty)  // nothing read through the symlink, nothing stored
        let linkId = try #require(link.recordId)
        let linkRecord = try #require(try archive.index.get(recordId: linkId))
        #expect(linkRecord.variants.isEmpty)
        #expect(linkRecord.integrity == "malformed")
        let junk = try #require(items.first { $0.path.hasSuffix("IMG_1.jpg") })
        #expect(junk.recordId == junk.report.sha256)  // unsigned/malformed: the file's SHA-256
        let junkBlob = try #require(junk.report.sha256)
        #expect(try archive.store.contains(junkBlob))
        // Again: all present, the symlink item found under its path-derived ID.
        var again: [IngestItem] = []
        _ = try ingestor.run(captures) { again.append($0) }
        #expect(again.map(\.outcome) == [.present, .present, .present])
        #expect(again.map(\.recordId) == items.map(\.recordId))
        #expect(try archive.custody.verify().isIntact)
    }
}
