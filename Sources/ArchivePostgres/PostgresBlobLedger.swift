import Archive
import Crypto
import Foundation
import Ground
import Postgres
import Synchronization

/// The blob ledger of an archive with a PostgreSQL index (migration 7), shared by every machine
/// whose `archive.json` names that index: `blob_ledger` (ID → size) and `blob_pending`, one
/// staging mark per process (`holder` = host:pid:random) with an expiry, renewed while the
/// process stages, deleted when it ends. A mark of a machine that died stops protecting its
/// unlisted objects once it expires (`lifetime`, default one hour).
///
/// `gc` (`sweeping`) holds a session advisory lock of the namespace while it lists and deletes;
/// a process marks itself under the same lock shared, so no machine starts uploading while a
/// sweep runs, and a sweep never starts while another machine's mark is live.
public final class PostgresBlobLedger: BlobLedger, @unchecked Sendable {
    /// Its own connection (staging threads and the index writer must not share a transaction).
    public let connection: Connection
    public let holder: String
    /// How long a staging mark protects unlisted objects without being renewed.
    public let lifetime: TimeInterval
    /// When this process last wrote its mark (nil: not marked).
    let marked = Mutex<Date?>(nil)

    /// The advisory lock key of the sweep: the namespace's (the session's `search_path`).
    static let sweepLock = "hashtextextended(current_schema() || '/exhibit-blob-sweep', 0)"

    public init(connection: Connection, lifetime: TimeInterval = 3600, holder: String? = nil) throws {
        self.connection = connection
        self.lifetime = lifetime
        self.holder = try holder ?? "\(ProcessInfo.processInfo.hostName):\(getpid()):\(SecureRandom.bytes(4).map { String(format: "%02x", $0) }.joined())"
    }

    deinit {
        if marked.withLock({ $0 }) != nil {
            _ = try? connection.execute("DELETE FROM blob_pending WHERE holder = $1", [.text(holder)])
        }
    }

    public func recorded(_ id: ContentID) throws -> Int64? {
        try connection.execute("SELECT size FROM blob_ledger WHERE blob_id = $1", [.bytes(id.bytes)]).single()?.decode(0, as: Int64.self)
    }

    public func record(_ blobs: [(ContentID, UInt64)]) throws -> [Bool] {
        if blobs.isEmpty { return [] }
        let added = try connection.write { tx in
            try tx.execute("""
                INSERT INTO blob_ledger (blob_id, size) SELECT * FROM unnest($1::bytea[], $2::bigint[])
                ON CONFLICT (blob_id) DO NOTHING RETURNING blob_id
                """, [.bytesArray(blobs.map(\.0.bytes)), .int64Array(blobs.map { Int64($0.1) })]).map { row in
                try Self.id(row.decode(0, as: [UInt8].self))
            }
        }
        var fresh = Set(added)
        return blobs.map { id, _ in fresh.remove(id) != nil }  // a blob twice in the batch: new once
    }

    public func remove(_ id: ContentID) throws -> Bool {
        try connection.execute("DELETE FROM blob_ledger WHERE blob_id = $1", [.bytes(id.bytes)]).affected == 1
    }

    public func entries() throws -> [(ContentID, Int64)] {
        try connection.read { tx in
            try tx.execute("SELECT blob_id, size FROM blob_ledger ORDER BY blob_id").map { row in
                (try Self.id(row.decode(0, as: [UInt8].self)), try row.decode(1, as: Int64.self))
            }
        }
    }

    public func totals() throws -> (blobs: Int64, bytes: Int64) {
        let row = try connection.execute("SELECT count(*), coalesce(sum(size), 0)::bigint FROM blob_ledger").single()
        return (try row?.decode(0, as: Int64.self) ?? 0, try row?.decode(1, as: Int64.self) ?? 0)
    }

    /// Writes (or renews) this process's mark when it has none or a quarter of `lifetime` has
    /// passed since it was written; waits while a sweep runs.
    public func markStaging() throws {
        try marked.withLock { last in
            let now = Date()
            if let last, now.timeIntervalSince(last) < lifetime / 4 { return }
            try connection.write { tx in
                try tx.execute("SELECT pg_advisory_xact_lock_shared(\(Self.sweepLock))")
                try tx.execute("""
                    INSERT INTO blob_pending (holder, expires) VALUES ($1, now() + make_interval(secs => $2))
                    ON CONFLICT (holder) DO UPDATE SET expires = EXCLUDED.expires
                    """, [.text(holder), .float64(lifetime)])
            }
            last = now
        }
    }

    public func sweeping<R>(_ sweep: () throws -> R) throws -> LedgerSweep<R> {
        try connection.execute("SELECT pg_advisory_lock(\(Self.sweepLock))")
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(Self.sweepLock))") }
        let cleared = try connection.execute("DELETE FROM blob_pending WHERE expires <= now() AND holder <> $1", [.text(holder)]).affected
        let busy = try connection.execute("SELECT EXISTS (SELECT 1 FROM blob_pending WHERE holder <> $1)",
                                          [.text(holder)]).single()?.decode(0, as: Bool.self) ?? false
        if busy { return LedgerSweep(result: nil, marksCleared: cleared) }
        return LedgerSweep(result: try sweep(), marksCleared: cleared)
    }

    static func id(_ bytes: [UInt8]) throws -> ContentID {
        guard let id = bytes.withUnsafeBytes({ ContentID($0) }), bytes.count == 32 else {
            throw ArchivePostgresError.damagedRow("blob_ledger ID of \(bytes.count) bytes")
        }
        return id
    }
}
