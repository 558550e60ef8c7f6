import Postgres

/// The SQL of the custody log (migration 2): one hash chain that many writers append to.
///
/// The append protocol, in the caller's transaction (so an event commits with the change it
/// describes): take the chain's transaction-scoped advisory lock (`pg_advisory_xact_lock` of
/// the namespace's chain key, held until commit), read the head, let the caller build the event
/// for `head.seq + 1` and `head.hash`, insert it and its object rows. In READ COMMITTED each
/// statement sees what was committed before it, so after the lock the head is the last
/// committed event and appends never conflict. In SERIALIZABLE (or REPEATABLE READ) the
/// snapshot may predate the lock; the database then refuses the stale event with a
/// serialization failure (40001), and `Connection.serializable` runs the closure again —
/// the "SERIALIZABLE and retry" way, also supported.
///
/// Whatever a writer does, the database keeps the chain whole: a trigger refuses an event
/// whose seq is not the head's + 1 or whose prevHash is not the head's hash, and moves the
/// head; another refuses UPDATE, DELETE and TRUNCATE. So no seq is used twice and none is
/// skipped (a rolled-back append leaves no gap: the head rolls back with it).
public enum CustodyChain {
    /// The last event's seq and hash (0 and 32 zero bytes for an empty log).
    public struct Head: Sendable, Equatable {
        public let seq: UInt64
        public let hash: [UInt8]
    }

    /// One stored event.
    public struct Event: Sendable, Equatable {
        public let seq: UInt64
        public let prevHash: [UInt8]
        public let hash: [UInt8]
        /// Exactly LMDB's `custody.events` value: the canonical bytes, then the 32-byte hash.
        public let stored: [UInt8]
    }

    /// SQLSTATE of the trigger's refusal of an event that does not continue the head.
    static let notTheHead = "EXC01"

    /// Appends one event naming `objects` (record, blob or anchor IDs): locks the chain, reads
    /// the head, calls `make(seq, prevHash)` for the event's stored bytes and hash, inserts.
    /// Returns the new head. `make` may run again if the transaction is retried.
    @discardableResult
    public static func append(objects: [String], in tx: Transaction,
                              _ make: (_ seq: UInt64, _ prevHash: [UInt8]) throws -> (stored: [UInt8], hash: [UInt8])) throws -> Head {
        try lock(in: tx)
        let head = try self.head(in: tx)
        let seq = head.seq + 1
        let (stored, hash) = try make(seq, head.hash)
        guard hash.count == 32, stored.count > 32, stored.suffix(32).elementsEqual(hash) else {
            throw ArchivePostgresError.custodyEventInvalid("event \(seq): stored bytes must end in its 32-byte hash")
        }
        do {
            try tx.execute("INSERT INTO custody_events (seq, prev_hash, hash, stored) VALUES ($1, $2, $3, $4)",
                           [.int64(Int64(seq)), .bytes(head.hash), .bytes(hash), .bytes(stored)])
        } catch {
            if error.sqlState == notTheHead { throw ArchivePostgresError.custodyHeadMoved(seq: seq, detail: error.message) }
            throw error
        }
        let ids = Array(Set(objects)).sorted()
        if !ids.isEmpty {
            try tx.execute("INSERT INTO custody_objects (object_id, seq) SELECT unnest($1::text[]), $2",
                           [.textArray(ids), .int64(Int64(seq))])
        }
        return Head(seq: seq, hash: hash)
    }

    /// Waits for the chain's advisory lock (key: `hashtextextended(<namespace>/custody, 0)` of
    /// the transaction's first `search_path` schema), held until the transaction ends.
    public static func lock(in tx: Transaction) throws {
        try tx.execute("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/custody', 0))")
    }

    public static func head(in tx: Transaction) throws -> Head {
        guard let row = try tx.execute("SELECT seq, hash FROM custody_head WHERE singleton").single() else {
            throw ArchivePostgresError.damagedRow("custody_head has no row")
        }
        let seq = try row.decode(0, as: Int64.self), hash = try row.decode(1, as: [UInt8].self)
        guard seq >= 0, hash.count == 32 else { throw ArchivePostgresError.damagedRow("custody_head seq \(seq), hash of \(hash.count) bytes") }
        return Head(seq: UInt64(seq), hash: hash)
    }

    /// Events with seq > `after`, in seq order, at most `limit` (a walk of the whole log in
    /// pages: pass the last seq seen).
    public static func events(after: UInt64 = 0, limit: Int = 10_000, in tx: Transaction) throws -> [Event] {
        try tx.execute("SELECT seq, prev_hash, hash, stored FROM custody_events WHERE seq > $1 ORDER BY seq LIMIT $2",
                       [.int64(Int64(after)), .int64(Int64(limit))]).map(event)
    }

    /// The events naming `objectId`, in seq order.
    public static func events(forObject objectId: String, in tx: Transaction) throws -> [Event] {
        try tx.execute("""
            SELECT e.seq, e.prev_hash, e.hash, e.stored FROM custody_objects o JOIN custody_events e USING (seq)
            WHERE o.object_id = $1 ORDER BY e.seq
            """, [.text(objectId)]).map(event)
    }

    /// The seqs at which the stored chain's links break, found by the server in one pass
    /// (`lag` over seq order): a seq that is not the previous + 1 (the first must be 1), a
    /// prevHash that is not the previous hash (the first's: 32 zero bytes), or a head that is
    /// not the last event. Content hashes are the reader's to check (canonical bytes, docs/ingest.md).
    public static func brokenLinks(in tx: Transaction) throws -> [UInt64] {
        try tx.execute("""
            WITH chain AS (
                SELECT seq, prev_hash,
                       coalesce(lag(seq) OVER w, 0) AS before_seq,
                       coalesce(lag(hash) OVER w, decode(repeat('00', 32), 'hex')) AS before_hash
                FROM custody_events WINDOW w AS (ORDER BY seq)
            )
            SELECT seq FROM chain WHERE seq <> before_seq + 1 OR prev_hash <> before_hash
            UNION ALL
            SELECT h.seq FROM custody_head h
            WHERE NOT EXISTS (SELECT 1 FROM (SELECT e.seq, e.hash FROM custody_events e ORDER BY e.seq DESC LIMIT 1) last
                              WHERE last.seq = h.seq AND last.hash = h.hash)
              AND NOT (h.seq = 0 AND NOT EXISTS (SELECT 1 FROM custody_events))
            ORDER BY 1
            """).map { UInt64(try $0.decode(0, as: Int64.self)) }
    }

    static func event(_ row: Row) throws -> Event {
        let seq = try row.decode(0, as: Int64.self)
        let e = Event(seq: UInt64(max(0, seq)), prevHash: try row.decode(1), hash: try row.decode(2), stored: try row.decode(3))
        guard seq >= 1, e.prevHash.count == 32, e.hash.count == 32, e.stored.count > 32 else {
            throw ArchivePostgresError.damagedRow("custody event \(seq) breaks the schema's lengths")
        }
        return e
    }
}
