import Archive
import ArchiveLMDB
import CAS
import Foundation
import Ground
import Ingest
import Testing

/// Ingest asks the record store, through the protocol, to commit a batch's blobs and records
/// in one transaction (`RecordStore.write(committing:releasing:in:_:)`): the LMDB archive's
/// stores do it (the blob committed, reported new, and visible with the record), and answer nil
/// for a blob store outside their environment, with nothing written.
@Suite struct OneTransactionBatchTests {
    @Test func lmdbRecordsAndTheirOwnBlobsCommitInOneTransaction() throws {
        let archive = try DumpFixture.archive()
        let stage = try archive.blobs.stage(inline: Array("one transaction".utf8))
        let id = ContentID(of: Array("one transaction".utf8))
        let answer = try archive.records.write(committing: [stage], releasing: [], in: archive.blobs) { isNew, writer in
            #expect(isNew == [true])
            return 42
        }
        #expect(answer == 42, "the LMDB record store takes its own environment's blobs into the transaction")
        #expect(try archive.blobs.has(id))

        // A blob store of another environment: nil, and the staged blob is not committed by it.
        let other = try DumpFixture.archive()
        let foreign = try other.blobs.stage(inline: Array("elsewhere".utf8))
        let none: Int? = try archive.records.write(committing: [foreign], releasing: [], in: other.blobs) { _, _ in 7 }
        #expect(none == nil)
        #expect(try !other.blobs.has(ContentID(of: Array("elsewhere".utf8))))
        #expect(try !archive.blobs.has(ContentID(of: Array("elsewhere".utf8))))
        try other.blobs.release([foreign])
    }
}
