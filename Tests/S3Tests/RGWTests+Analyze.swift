import Analysis
import Archive
import ArchiveLMDB
import BlobStoreContract
import CAS
import Crypto
import Custody
import Foundation
import Ground
import Ingest
import Query
import Synthesis
import Testing
import Verify
@testable import S3

extension RGWTests {
    /// Issue 13: `analyze` reads blobs only through `BlobStore`, so it runs over S3. A deferred
    /// archive whose blobs are copied to the Ceph RGW (under a fresh prefix) is analysed with the
    /// S3 store as its only blob store: every record analysed, its thumbnail stored in S3, and
    /// every report and record equal to those of the same dump analysed over LMDB.
    @Suite struct Analyze {
        static let agent = CustodyAgent(operator: "test", tool: .init(name: "exhibit-archive", version: "test"), host: "test")

        static func deferred(_ root: String, _ expected: ExpectedDump, at path: String) throws -> LMDBArchive {
            var o = ContentStore.Options()
            o.environment.mapSize = 8 << 20
            let archive = try LMDBArchive(store: ContentStore.create(at: path, options: o))
            var verifier = CaptureVerifier(signerAnchors: try TrustAnchors(pemFile: root + "/" + expected.signerRoot),
                                           tsaAnchors: try TrustAnchors(pemFile: root + "/" + expected.tsaRoot))
            verifier.measuresMedia = false
            var io = Ingestor.Options()
            io.jobs = 2
            io.agent = agent
            io.deferAnalyses = true
            let (captures, _) = Ingestor.discover([root])
            _ = try Ingestor(archive: try archive.archive(), verifier: verifier, options: io).run(captures) { _ in }
            return archive
        }

        static func analyze(_ archive: LMDBArchive, blobs: any BlobStore) throws -> AnalysisSummary {
            var o = Analyzer.Options()
            o.jobs = 2
            o.agent = agent
            let a = Analyzer(records: archive.records, blobs: blobs, custody: archive.custodyStore,
                             verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none), options: o)
            return try a.run(try a.select()) { #expect($0.error == nil, "\($0.error ?? "")") }
        }

        @Test func analyzeReadsAndWritesBlobsInS3() throws {
            let server = try RGWServer.get()
            let scratch = ScratchDirectory()
            let root = scratch.file("dump")
            let expected = try DumpSynthesizer(options: SynthOptions(stills: 2, videos: 1, seed: 17, videoSeconds: 1, concurrency: 2,
                                                                     stillWidth: 320, stillHeight: 240)).write(to: root)
            let overS3 = try Self.deferred(root, expected, at: scratch.file("s3-archive"))
            let overLMDB = try Self.deferred(root, expected, at: scratch.file("lmdb-archive"))
            let s3 = try server.store()
            let local = LMDBBlobStore(overS3.store)
            try local.forEachBlob { id, size in
                var reader = ByteReader(MemoryByteSource(try local.bytes(of: id)))
                _ = try s3.put(id, size: size, from: &reader)
            }
            #expect(try Self.analyze(overS3, blobs: s3).outcomes[.analysed] == expected.captures.count)
            #expect(try Self.analyze(overLMDB, blobs: LMDBBlobStore(overLMDB.store)).outcomes[.analysed] == expected.captures.count)
            for id in try overLMDB.index.query(RecordFilter()).matches {
                let a = try #require(try overLMDB.index.get(recordId: id)), b = try #require(try overS3.index.get(recordId: id))
                #expect(b.reportJSON == a.reportJSON, "\(id)")
                #expect(b.derived == a.derived && b.analyses == a.analyses, "\(id)")
                let thumb = try #require(b.derived?.first?.blobId)
                #expect(try s3.has(thumb) && !(try local.has(thumb)), "the thumbnail went to S3 only")
            }
        }
    }
}
