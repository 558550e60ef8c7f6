import ArchiveLMDB
import CAS
import Foundation
import Ingest
import LMDB
import Query

/// The LMDB stores of a fresh archive directory (removed on release) as an `ArchiveSubject`:
/// `LMDBRecordStore` over `RecordIndex`, `CustodyLog`, `LMDBTrustAnchorStore` over
/// `TrustStore`. Damage is written straight into the environment's `idx.reports` and
/// `idx.records`. Used by `LMDBArchiveContractTests` and as the reference the PostgreSQL
/// stores are compared with.
public final class LMDBArchiveFixture: @unchecked Sendable {
    public let path = NSTemporaryDirectory() + "archive-contract-" + UUID().uuidString
    public let archive: LMDBArchive
    public let subject: ArchiveSubject

    public init() throws {
        archive = try LMDBArchive(store: try ContentStore.create(at: path))
        let records = LMDBRecordStore(index: archive.index, custody: archive.custody)
        let environment = archive.environment
        let custody = archive.custody
        subject = ArchiveSubject(
            records: records, custody: custody, trust: LMDBTrustAnchorStore(trust: archive.trust, custody: custody),
            another: { (records, custody) },  // one environment per process: its writers queue on LMDB's write lock
            overwriteReport: { id, bytes in
                let reports = try environment.database("idx.reports")
                try environment.write { txn in _ = try txn.put(reports, id.bytes, bytes) }
            },
            damageBody: { id in
                let bodies = try environment.database("idx.records")
                try environment.write { txn in
                    guard var body = try txn.value(bodies, id.bytes) else { throw QueryError.notFound(id.hex) }
                    body[body.count - 3] ^= 0x01  // inside the JSON
                    _ = try txn.put(bodies, id.bytes, body)
                }
            })
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
