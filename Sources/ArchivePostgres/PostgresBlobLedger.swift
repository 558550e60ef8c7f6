import Archive
import Crypto
import Foundation
import Ground
import Postgres

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
    /// This process's mark: when it was last written (nil: none), whether the process staged
    /// since its last `record`, and whether the mark was found expired while it had (the
    /// objects staged under it may be gone).
    struct Mark { var written: Date?; var staged = false; var lost = false }
    let mark = Locked(Mark(written: nil))

    /// The advisory lock key of the sweep: the namespace's (the session's `search_path`).
    static let sweepLock = "hashtextextended(current_schema() || '/exhibit-blob-sweep', 0)"

    public init(connection: Connection, lifetime: TimeInterval = 3600, holder: String? = nil) throws {
        self.connection = connection
        self.lifetime = lifetime
        self.holder = try holder ?? "\(ProcessInfo.processInfo.hostName):\(getpid()):\(SecureRandom.bytes(4).map { String(format: "%02x", $0) }.joined())"
    }

    deinit {
        if mark.withLock({ $0.written }) != nil {
            _ = try? connection.execute("DELETE FROM blob_pending WHERE holder = $1", [.text(holder)])
        }
    }

    public func recorded(_ id: ContentID) throws -> Int64? {
        try connection.execute("SELECT size FROM blob_ledger WHERE blob_id = $1", [.bytes(id.bytes)]).single()?.decode(0, as: Int64.self)
    }

    /// Lists the batch in one transaction that first renews this process's mark; a mark that
    /// expired (or was cleared by a sweep) since it was written means a `gc` may have deleted
    /// the batch's objects: nothing is listed, `archive.blobs.markLost` is thrown, and the next
    /// stage writes a new mark.
    public func record(_ blobs: [(ContentID, UInt64)]) throws -> [Bool] {
        if blobs.isEmpty { return [] }
        let added = try mark.withLock { mark in
            let result = Result<[ContentID], any Error> {
                try connection.write { tx in
                    try tx.execute("SELECT pg_advisory_xact_lock_shared(\(Self.sweepLock))")
                    guard !mark.lost, try renew(in: tx) else { throw ArchivePostgresError.blobMarkLost(holder: holder) }
                    return try insert(blobs, in: tx)
                }
            }
            switch result {
            case .success:
                mark.written = Date()
                mark.staged = false
            case .failure(ArchivePostgresError.blobMarkLost):  // the next stage marks anew
                mark = Mark(written: nil)
                _ = try? connection.execute("DELETE FROM blob_pending WHERE holder = $1", [.text(holder)])
            case .failure: break
            }
            return try result.get()
        }
        var fresh = Set(added)
        return blobs.map { id, _ in fresh.remove(id) != nil }  // a blob twice in the batch: new once
    }

    /// Extends this process's unexpired mark; false when it has none.
    func renew(in tx: Transaction) throws -> Bool {
        try tx.execute("UPDATE blob_pending SET expires = now() + make_interval(secs => $2) WHERE holder = $1 AND expires > now()",
                       [.text(holder), .float64(lifetime)]).affected == 1
    }

    func insert(_ blobs: [(ContentID, UInt64)], in tx: Transaction) throws -> [ContentID] {
            try tx.execute("""
                INSERT INTO blob_ledger (blob_id, size) SELECT * FROM unnest($1::bytea[], $2::bigint[])
                ON CONFLICT (blob_id) DO NOTHING RETURNING blob_id
                """, [.bytesArray(blobs.map(\.0.bytes)), .int64Array(blobs.map { Int64($0.1) })]).map { row in
                try Self.id(row.decode(0, as: [UInt8].self))
            }
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

    /// Writes this process's mark when it has none, and renews it once a quarter of `lifetime`
    /// has passed; waits while a sweep runs. A mark found expired (or cleared) is written anew
    /// for the uploads to come; if the process had staged since its last `record`, the next
    /// `record` throws `archive.blobs.markLost`: what was uploaded under the old one may be gone.
    public func markStaging() throws {
        try mark.withLock { mark in
            let now = Date()
            defer { mark.staged = true }
            if let last = mark.written, now.timeIntervalSince(last) < lifetime / 4 { return }
            let lost = try connection.write { tx in
                try tx.execute("SELECT pg_advisory_xact_lock_shared(\(Self.sweepLock))")
                let renewed = try mark.written != nil && renew(in: tx)
                if !renewed {
                    try tx.execute("""
                        INSERT INTO blob_pending (holder, expires) VALUES ($1, now() + make_interval(secs => $2))
                        ON CONFLICT (holder) DO UPDATE SET expires = EXCLUDED.expires
                        """, [.text(holder), .float64(lifetime)])
                }
                return mark.written != nil && !renewed
            }
            mark.written = now
            if lost && mark.staged { mark.lost = true }  // an idle process lost nothing
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
