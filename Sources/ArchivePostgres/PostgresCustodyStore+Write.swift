import Archive
import Ground
import Postgres

extension PostgresCustodyStore {
    /// One READ COMMITTED write transaction holding the chain's advisory lock from its start, so
    /// what `body` reads is the chain no other appender can change before it commits.
    public func write<R>(_ body: (any CustodyWriter) throws -> R) throws -> R {
        try connection.write { tx in
            try CustodyChain.lock(in: tx)
            return try body(PostgresCustodyWriter(tx: tx))
        }
    }
}

/// `CustodyWriter` inside one PostgreSQL transaction.
struct PostgresCustodyWriter: CustodyWriter {
    let tx: Transaction

    @discardableResult
    func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try events.map { try PostgresCustodyStore.append($0, in: tx) }
    }

    func storedEvents(after: UInt64, limit: Int) throws -> [StoredCustodyEvent] {
        try CustodyChain.events(after: after, limit: limit, in: tx).map(\.storedEvent)
    }

    func storedEvents(forObject objectId: String) throws -> [StoredCustodyEvent] {
        try CustodyChain.events(forObject: objectId, in: tx).map(\.storedEvent)
    }
}
