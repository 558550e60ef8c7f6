import ArchiveLMDB
import Crypto
import Foundation
import Ground
import Ingest
import Query
import Synthesis
import TestLiterals
import Testing
import Verify

/// A capture found exactly as archived (same delivery blob, same source path, every file under
/// the same relative path and digest) is `present` without being verified again; anything
/// changed is verified as before.
@Suite struct UnchangedReingestTests {
    func ingest(_ archive: LMDBArchive, _ root: String, signer: TrustAnchors, tsa: TrustAnchors) throws -> [IngestItem] {
        var options = Ingestor.Options()
        options.jobs = 2
        options.agent = DumpFixture.agent
        let (captures, errors) = Ingestor.discover([root])
        #expect(errors.isEmpty)
        var items: [IngestItem] = []
        _ = try Ingestor(archive: try archive.archive(), verifier: CaptureVerifier(signerAnchors: signer, tsaAnchors: tsa), options: options)
            .run(captures) { items.append($0) }
        return items.sorted { $0.sourcePath < $1.sourcePath }
    }

    @Test func unchangedCapturesSkipVerificationChangedOnesDoNot() throws {
        let root = DumpFixture.scratch("unchanged") + "/dump"
        let expected = try DumpSynthesizer(options: SynthOptions(stills: 3, videos: 0, seed: 19, faults: [], concurrency: 2,
                                                                 stillWidth: 320, stillHeight: 240)).write(to: root)
        let signer = try TrustAnchors(pemFile: root + "/" + expected.signerRoot)
        let tsa = try TrustAnchors(pemFile: root + "/" + expected.tsaRoot)
        let archive = try DumpFixture.archive()
        let first = try ingest(archive, root, signer: signer, tsa: tsa)
        #expect(first.count == 3 && first.allSatisfy { $0.outcome == .new })
        let trustedAtFirst = Set(first.filter { $0.report.signer?.trust == .trusted }.map(\.sourcePath))
        #expect(!trustedAtFirst.isEmpty)

        // Re-ingest with no anchors at all: a verification would now say `untrusted`. The items
        // carry the stored reports (trusted), so nothing was verified again.
        let none = try TrustAnchors([])
        let again = try ingest(archive, root, signer: none, tsa: none)
        #expect(again.allSatisfy { $0.outcome == .present && $0.newBlobs == 0 })
        #expect(again.map { $0.report.jsonBytes() } == first.map { $0.report.jsonBytes() })
        #expect(Set(again.filter { $0.report.signer?.trust == .trusted }.map(\.sourcePath)) == trustedAtFirst)

        // One sidecar changed on disk: that capture is verified again (mismatch, untrusted now)
        // and, its delivery file being a known variant with a differing sidecar, stored as a
        // `variant` (issue 12 item 3: compared, never assumed); the others are not verified.
        let changed = try #require(expected.captures.first { c in trustedAtFirst.contains { $0.hasSuffix(c.deliveryFile) } })
        let audio = try #require(changed.files.first { $0.hasSuffix(".caf") })
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: root + "/" + audio))
        try h.seekToEnd()
        try h.write(contentsOf: Data([1, 2, 3]))
        try h.close()
        let third = try ingest(archive, root, signer: none, tsa: none)
        for item in third {
            #expect(item.outcome == (item.sourcePath.hasSuffix(changed.deliveryFile) ? .variant : .present))
            if item.sourcePath.hasSuffix(changed.deliveryFile) {
                #expect(item.report.sidecars.first { $0.sink == "audio" }?.state == "mismatch")
                #expect(item.report.signer?.trust == .untrusted)
            } else {
                #expect((item.report.signer?.trust == .trusted) == trustedAtFirst.contains(item.sourcePath))
            }
        }

        // The same dump under another name: a new source path, so verified and the path added.
        // Something is written (the path, one ingestion event each), so the outcome is
        // `path-added`, not `present` (issue 12: `present` means nothing was written).
        let copy = DumpFixture.scratch("unchanged-copy") + "/elsewhere"
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/bin/cp")
        cp.arguments = ["-a", root, copy]
        try cp.run()
        cp.waitUntilExit()
        let eventsBefore = try archive.custody.allEvents().count
        let moved = try ingest(archive, copy, signer: none, tsa: none)
        #expect(moved.count == 3)
        #expect(moved.allSatisfy { $0.outcome == .pathAdded && $0.newBlobs == 0 && $0.report.signer?.trust == .untrusted })
        for item in moved {
            let id = try #require(item.recordId)
            let record = try #require(try archive.index.get(recordId: id))
            #expect(record.variants.contains { $0.sourcePaths.contains(item.sourcePath) })
        }
        let pathEvents = try archive.custody.allEvents().dropFirst(eventsBefore)
        #expect(pathEvents.count == moved.count && pathEvents.allSatisfy { $0.eventType == .ingestion })
        // The copy again: now nothing is new, nothing is written — `present`, no event.
        let movedAgain = try ingest(archive, copy, signer: none, tsa: none)
        #expect(movedAgain.allSatisfy { $0.outcome == .present && $0.newBlobs == 0 })
        #expect(try archive.custody.allEvents().count == eventsBefore + moved.count)
    }
}
