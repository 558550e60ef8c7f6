import Archive
import Custody
import Ground
import LMDB

extension CustodyLog {
    /// One write transaction of the archive environment (re-run when the map grows).
    public func write<R>(_ body: (any CustodyWriter) throws -> R) throws -> R {
        try environment.write { txn in try body(LMDBCustodyWriter(log: self, txn: txn)) }
    }

    /// Events with seq > `after`, in seq order, at most `limit`, in `txn`.
    func storedEvents(after: UInt64, limit: Int, in txn: Transaction) throws -> [StoredCustodyEvent] {
        guard limit > 0, after < UInt64.max else { return [] }
        let cursor = try txn.cursor(events)
        var out: [StoredCustodyEvent] = []
        var entry = try Self.key(after + 1).withUnsafeBytes { try cursor.seek(atLeast: $0) }
        while let (k, v) = entry, out.count < limit {
            guard k.count == 8 else { throw CustodyError.malformedEvent("custody.events key of \(k.count) bytes") }
            out.append(Self.stored(seq: Self.seq(k), value: v))
            entry = try cursor.next()
        }
        return out
    }

    /// The events naming `objectId`, in seq order, in `txn`.
    func storedEvents(forObject objectId: String, in txn: Transaction) throws -> [StoredCustodyEvent] {
        try eventKeys(forObject: objectId, in: txn).compactMap { key in
            try txn.withValue(events, key) { raw in raw.map { Self.stored(seq: Self.seq(key), value: $0) } }
        }
    }
}

/// `CustodyWriter` inside one LMDB write transaction.
struct LMDBCustodyWriter: CustodyWriter {
    let log: CustodyLog
    let txn: Transaction

    @discardableResult
    func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try events.map { try log.append($0, in: txn) }
    }

    func storedEvents(after: UInt64, limit: Int) throws -> [StoredCustodyEvent] {
        try log.storedEvents(after: after, limit: limit, in: txn)
    }

    func storedEvents(forObject objectId: String) throws -> [StoredCustodyEvent] {
        try log.storedEvents(forObject: objectId, in: txn)
    }
}
