import Ground
import Postgres
import Query

/// The SQL of the record index over `records`, `record_sidecars` and `record_variants`
/// (migration 1), each call inside the caller's transaction, so a capture's record, index
/// rows and custody events commit together. Semantics are those of LMDB's `RecordIndex`
/// (docs/query.md), which the tests compare it with.
public enum RecordTable {
    /// Inserts `row`, or replaces the record with its ID: its filter columns and body are
    /// overwritten, sinks it no longer has are deleted and changed states updated, each variant
    /// blob maps to this record (taken from another record if it pointed there), and a variant
    /// this record no longer lists loses its mapping. One statement (one round trip);
    /// re-runnable.
    public static func put(_ row: IndexRow, in tx: Transaction) throws {
        try row.validate()
        let sinks = row.sidecars.keys.sorted()
        let variants = Set(row.variants).sorted { $0.lexicographicallyPrecedes($1) }
        try tx.execute("""
            WITH rec AS (
                INSERT INTO records AS r (record_id, body_format, body, kind, integrity, trust, key_fingerprint,
                                          capture_time, ingest_time, analyses)
                VALUES ($1, 2, $2, $3, $4, $5, $6, $7, $8, $14)
                ON CONFLICT (record_id) DO UPDATE SET body_format = EXCLUDED.body_format, body = EXCLUDED.body, kind = EXCLUDED.kind,
                    integrity = EXCLUDED.integrity, trust = EXCLUDED.trust, key_fingerprint = EXCLUDED.key_fingerprint,
                    capture_time = EXCLUDED.capture_time, ingest_time = EXCLUDED.ingest_time, analyses = EXCLUDED.analyses
                RETURNING record_id
            ), gone_sidecars AS (
                DELETE FROM record_sidecars WHERE record_id = $1 AND sink <> ALL ($9::text[])
            ), new_sidecars AS (
                INSERT INTO record_sidecars AS s (record_id, sink, state)
                SELECT rec.record_id, u.sink, u.state FROM rec, unnest($9::text[], $10::text[]) AS u (sink, state)
                ON CONFLICT (record_id, sink) DO UPDATE SET state = EXCLUDED.state WHERE s.state <> EXCLUDED.state
            ), report AS (
                INSERT INTO record_reports (report_id, report) VALUES ($12, $13) ON CONFLICT (report_id) DO NOTHING
            ), gone_variants AS (
                DELETE FROM record_variants WHERE record_id = $1 AND blob_id <> ALL ($11::bytea[])
            )
            INSERT INTO record_variants AS v (blob_id, record_id)
            SELECT b, rec.record_id FROM rec, unnest($11::bytea[]) AS b
            ON CONFLICT (blob_id) DO UPDATE SET record_id = EXCLUDED.record_id WHERE v.record_id <> EXCLUDED.record_id
            """, [.bytes(row.recordId), .bytes(row.body), .text(row.kind), .text(row.integrity), text(row.trust),
                  text(row.keyFingerprint), text(row.captureTime), .text(row.ingestTime),
                  .textArray(sinks), .textArray(sinks.map { row.sidecars[$0]! }), .bytesArray(variants),  // keys of sidecars
                  .bytes(Array(row.reportId)), .bytes(row.report), text(row.analyses)])
    }

    /// Removes a record with its sidecar and variant rows (cascade); false when absent.
    @discardableResult
    public static func remove(recordId: ContentID, in tx: Transaction) throws -> Bool {
        try tx.execute("DELETE FROM records WHERE record_id = $1", [.bytes(recordId.bytes)]).affected == 1
    }

    /// The record's stored body (`RecordBody` format 2, LMDB's `idx.records` bytes), or nil;
    /// not checked (`get` re-hashes).
    public static func body(recordId: ContentID, in tx: Transaction) throws -> [UInt8]? {
        try tx.execute("SELECT body FROM records WHERE record_id = $1", [.bytes(recordId.bytes)]).single()?.decode(0, as: [UInt8].self)
    }

    /// One stored record as read: its body format, body and the report its body names (nil
    /// when `record_reports` has no row under that ID).
    struct StoredRecord {
        var id: ContentID
        var format: Int
        var body: [UInt8]
        var report: [UInt8]?
    }

    /// The stored rows of these records with the reports their bodies name (bytes 33..<65),
    /// in the given order (absent IDs skipped). Nothing is checked here.
    /// With `lockingRows`, a writer that reads a record to change it waits for another writer
    /// of that record, then reads its committed version: first a transaction-scoped advisory
    /// lock per record ID (`recordLock`, taken in ID order) — which also holds when there is no
    /// row yet, so two writers each putting a new record (two workers committing two variants
    /// of one capture) do not both read "absent" and the second overwrite the first — then the
    /// rows found stay locked (`FOR UPDATE OF r`) until `tx` ends. Under READ COMMITTED the
    /// SELECT after the wait sees what the other writer committed.
    static func stored(_ ids: [ContentID], in tx: Transaction, lockingRows: Bool = false) throws -> [StoredRecord] {
        if lockingRows {
            for id in Set(ids).sorted() { try recordLock(id, in: tx) }
        }
        let rows = try tx.execute("""
            SELECT r.record_id, r.body_format, r.body, p.report FROM records r
            LEFT JOIN record_reports p ON p.report_id = substring(r.body FROM 34 FOR 32)
            WHERE r.record_id = ANY ($1)\(lockingRows ? " FOR UPDATE OF r" : "")
            """, [.bytesArray(ids.map(\.bytes))])
        var found: [ContentID: StoredRecord] = [:]
        for r in rows {
            let id = try contentID(r)
            found[id] = StoredRecord(id: id, format: try r.decode(1, as: Int.self), body: try r.decode(2, as: [UInt8].self),
                                     report: try r.decode(3, as: [UInt8]?.self))
        }
        return ids.compactMap { found[$0] }
    }

    /// Waits for the record's transaction-scoped advisory lock (key: `hashtextextended(
    /// <namespace>/record/<hex ID>, 0)`, released when `tx` ends). Writers of one record, present
    /// or not yet, run one after the other; a hash collision between two IDs only makes their
    /// writers wait for each other.
    static func recordLock(_ id: ContentID, in tx: Transaction) throws {
        try tx.execute("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/record/' || $1, 0))", [.text(id.hex)])
    }

    /// Stores a report by its SHA-256 (put-if-absent) and returns the ID.
    @discardableResult
    public static func putReport(_ bytes: [UInt8], in tx: Transaction) throws -> ContentID {
        let id = ContentID.sha256(of: bytes)
        try tx.execute("INSERT INTO record_reports (report_id, report) VALUES ($1, $2) ON CONFLICT (report_id) DO NOTHING",
                       [.bytes(id.bytes), .bytes(bytes)])
        return id
    }

    /// The report stored under `id`, re-hashed: `index.record.damaged` naming `recordId` when
    /// it is missing or its bytes no longer match `id` (LMDB's `RecordIndex.report`).
    public static func report(_ id: ContentID, of recordId: ContentID, in tx: Transaction) throws -> [UInt8] {
        guard let bytes = try tx.execute("SELECT report FROM record_reports WHERE report_id = $1", [.bytes(id.bytes)]).single()?
            .decode(0, as: [UInt8].self) else {
            throw QueryError.damagedRecord(recordId: recordId, reason: "report \(id) is missing")
        }
        guard ContentID.sha256(of: bytes) == id else {
            throw QueryError.damagedRecord(recordId: recordId, reason: "stored report bytes no longer match their SHA-256 \(id)")
        }
        return bytes
    }

    public static func contains(recordId: ContentID, in tx: Transaction) throws -> Bool {
        try tx.execute("SELECT 1 FROM records WHERE record_id = $1", [.bytes(recordId.bytes)]).count == 1
    }

    /// The record a delivery-file variant with this blob ID belongs to, or nil.
    public static func recordId(forVariant blobId: ContentID, in tx: Transaction) throws -> ContentID? {
        try tx.execute("SELECT record_id FROM record_variants WHERE blob_id = $1", [.bytes(blobId.bytes)]).single().map(contentID)
    }

    /// Number of records (a count of the primary key: linear, unlike LMDB's O(1) entry count).
    public static func count(in tx: Transaction) throws -> Int {
        try tx.execute("SELECT count(*) FROM records").single()?.decode(0, as: Int.self) ?? 0
    }

    /// The IDs of records whose hex ID starts with `prefix` (1…64 lowercase hex digits), in
    /// order, at most `limit`: one range scan of the primary key between the prefix padded with
    /// `0`s and with `f`s.
    public static func recordIds(withPrefix prefix: String, limit: Int = 2, in tx: Transaction) throws -> [ContentID] {
        let n = prefix.utf8.count
        guard (1...64).contains(n), ContentID.isLowercaseHex(prefix),
              let lo = ContentID(hex: prefix + String(repeating: "0", count: 64 - n)),
              let hi = ContentID(hex: prefix + String(repeating: "f", count: 64 - n)) else {
            throw QueryError.invalidRecordId(prefix)
        }
        return try tx.execute("SELECT record_id FROM records WHERE record_id BETWEEN $1 AND $2 ORDER BY record_id LIMIT $3",
                              [.bytes(lo.bytes), .bytes(hi.bytes), .int64(Int64(max(0, limit)))]).map(contentID)
    }

    // MARK: Helpers

    static func text(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }

    /// Column 0 of `row`, a record ID (exactly 32 bytes, else `archive.row.damaged`).
    static func contentID(_ row: Row) throws -> ContentID {
        let bytes = try row.decode(0, as: [UInt8].self)
        guard let id = ContentID(digest: bytes) else { throw ArchivePostgresError.damagedRow("a record ID of \(bytes.count) bytes") }
        return id
    }
}
