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
                                          capture_time, ingest_time)
                VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (record_id) DO UPDATE SET body = EXCLUDED.body, kind = EXCLUDED.kind,
                    integrity = EXCLUDED.integrity, trust = EXCLUDED.trust, key_fingerprint = EXCLUDED.key_fingerprint,
                    capture_time = EXCLUDED.capture_time, ingest_time = EXCLUDED.ingest_time
                RETURNING record_id
            ), gone_sidecars AS (
                DELETE FROM record_sidecars WHERE record_id = $1 AND sink <> ALL ($9::text[])
            ), new_sidecars AS (
                INSERT INTO record_sidecars AS s (record_id, sink, state)
                SELECT rec.record_id, u.sink, u.state FROM rec, unnest($9::text[], $10::text[]) AS u (sink, state)
                ON CONFLICT (record_id, sink) DO UPDATE SET state = EXCLUDED.state WHERE s.state <> EXCLUDED.state
            ), gone_variants AS (
                DELETE FROM record_variants WHERE record_id = $1 AND blob_id <> ALL ($11::bytea[])
            )
            INSERT INTO record_variants AS v (blob_id, record_id)
            SELECT b, rec.record_id FROM rec, unnest($11::bytea[]) AS b
            ON CONFLICT (blob_id) DO UPDATE SET record_id = EXCLUDED.record_id WHERE v.record_id <> EXCLUDED.record_id
            """, [.bytes(row.recordId), .bytes(row.body), .text(row.kind), .text(row.integrity), text(row.trust),
                  text(row.keyFingerprint), text(row.captureTime), .text(row.ingestTime),
                  .textArray(sinks), .textArray(sinks.map { row.sidecars[$0]! }), .bytesArray(variants)])  // keys of sidecars
    }

    /// Removes a record with its sidecar and variant rows (cascade); false when absent.
    @discardableResult
    public static func remove(recordId: ContentID, in tx: Transaction) throws -> Bool {
        try tx.execute("DELETE FROM records WHERE record_id = $1", [.bytes(recordId.bytes)]).affected == 1
    }

    /// The record's JSON body, or nil.
    public static func body(recordId: ContentID, in tx: Transaction) throws -> [UInt8]? {
        guard let row = try tx.execute("SELECT body_format, body FROM records WHERE record_id = $1", [.bytes(recordId.bytes)]).single() else {
            return nil
        }
        return try body(of: row, id: recordId)
    }

    /// The bodies of the records with these IDs, in the given order (absent IDs skipped).
    public static func bodies(_ ids: [ContentID], in tx: Transaction) throws -> [(id: ContentID, body: [UInt8])] {
        let rows = try tx.execute("SELECT record_id, body_format, body FROM records WHERE record_id = ANY ($1)", [.bytesArray(ids.map(\.bytes))])
        var found: [ContentID: [UInt8]] = [:]
        for r in rows {
            let id = try contentID(r)
            found[id] = try body(of: r, id: id, formatColumn: 1)
        }
        return ids.compactMap { id in found[id].map { (id, $0) } }
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

    static func body(of row: Row, id: ContentID, formatColumn: Int = 0) throws -> [UInt8] {
        let format = try row.decode(formatColumn, as: Int.self)
        guard format == 1 else { throw QueryError.damagedRecord(recordId: id, reason: "body format \(format)") }
        return try row.decode(formatColumn + 1, as: [UInt8].self)
    }

    /// Column 0 of `row`, a record ID (exactly 32 bytes, else `archive.row.damaged`).
    static func contentID(_ row: Row) throws -> ContentID {
        let bytes = try row.decode(0, as: [UInt8].self)
        guard let id = ContentID(digest: bytes) else { throw ArchivePostgresError.damagedRow("a record ID of \(bytes.count) bytes") }
        return id
    }
}
