import Archive
import ArchiveLMDB
import CAS
import Foundation
import Ground
import Ingest
import LMDB
import Testing
import Verify

/// Issue 12 (h): a stored chunk that goes bad after its blob was checked surfaces in the
/// verifier's findings with the CAS's own code (`cas.chunk.missing`), not `io.readFailed`.
/// The delivery file of a capture is stored, opened as a `StoredBlobSource` (checked against its
/// ID), then its chunks deleted before the verifier reads it from the snapshot.
@Suite struct ChunkGoneVerifyTests {
    @Test func aChunkGoneBeforeTheVerifierReadsIsNamedByTheCAS() throws {
        let (root, _, verifier) = try DumpFixture.synthesized("chunk-gone", stills: 1, seed: 53)
        let location = try #require(Ingestor.discover([root]).captures.first)
        let store = try ContentStore.create(at: DumpFixture.scratch("chunk-gone-store") + "/archive")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: location.deliveryFile)))
        var reader = ByteReader(MemoryByteSource(bytes))
        let id = try store.put(from: &reader).id
        let source = try StoredBlobSource.verified(id, in: store)
        let chunks = try store.environment.database("cas.chunks")
        for chunk in try #require(try store.record(of: id)).chunks {
            _ = try store.environment.write { txn in try txn.delete(chunks, chunk) }
        }
        let report = verifier.verify(CaptureSnapshot(location: location, files: [location.deliveryFile: .init(id: id, source: source)]))
        let json = String(decoding: report.jsonBytes(), as: UTF8.self)
        #expect(json.contains(StatusCode.casChunkMissing), "\(json.prefix(600))")
        #expect(!json.contains(StatusCode.ioReadFailed))
    }
}
