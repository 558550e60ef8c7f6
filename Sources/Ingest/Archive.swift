import CAS
import Foundation
import LMDB
import Query

/// The parts of one archive that ingest writes, all in the store's single LMDB environment:
/// the content store, the record index, the custody log and the stored trust anchors.
public final class Archive: Sendable {
    public let store: ContentStore
    public let index: RecordIndex
    public let custody: CustodyLog
    public let trust: TrustStore

    /// Opens (creating when missing) the index, custody and trust databases of `store`.
    /// Call outside any transaction.
    public init(store: ContentStore) throws {
        self.store = store
        index = try RecordIndex(environment: store.environment)
        custody = try CustodyLog(environment: store.environment)
        trust = try TrustStore(environment: store.environment)
    }

    public var environment: Environment { store.environment }
}

extension Environment {
    /// The named database, created only when it does not exist yet (so an archive opened
    /// read-only still opens what is there).
    func openOrCreate(_ name: String) throws -> Database {
        do {
            return try database(name)
        } catch let e as LMDBError where e == .notFound && !options.readOnly {
            return try database(name, create: true)
        }
    }
}
