import CLMDB
import Foundation

/// Whether a scan goes on.
public enum ScanStep: Sendable {
    case next, stop
}

/// A cursor over one database, owned for the length of a transaction closure.
public final class Cursor {
    private let cursor: OpaquePointer
    private let db: Database

    init(txn: Transaction, db: Database) throws {
        var raw: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn.txn, db.dbi, &raw), "mdb_cursor_open(\(db.name))")
        guard let c = raw else { throw LMDBError(code: ENOMEM, operation: "mdb_cursor_open") }
        cursor = c
        self.db = db
    }

    deinit { mdb_cursor_close(cursor) }

    /// Moves the cursor; returns the borrowed (key, value) or nil at the end.
    func move(_ op: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil)
        throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)?
    {
        var k = MDB_val(mv_size: key?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: key?.baseAddress))
        var v = MDB_val()
        let rc = mdb_cursor_get(cursor, &k, &v, op)
        if rc == MDB_NOTFOUND { return nil }
        try LMDBError.check(rc, "mdb_cursor_get(\(db.name))")
        return (UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
                UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
    }

    /// The first entry.
    public func first() throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        try move(MDB_FIRST)
    }

    /// The next entry.
    public func next() throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        try move(MDB_NEXT)
    }

    /// The first entry whose key is ≥ `key`.
    public func seek(atLeast key: UnsafeRawBufferPointer) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        try move(MDB_SET_RANGE, key: key)
    }
}

extension Transaction {
    /// Opens a cursor on `db`; it is closed when released (before the closure returns).
    public func cursor(_ db: Database) throws -> Cursor {
        try Cursor(txn: self, db: db)
    }

    /// Visits, in key order, every entry whose key starts with `prefix` (all entries for an
    /// empty prefix). Keys and values are borrowed for the call of `body` only.
    public func scan<Prefix: ContiguousBytes>(
        _ db: Database, prefix: Prefix,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> ScanStep
    ) throws {
        let cursor = try self.cursor(db)
        try prefix.withUnsafeBytes { p in
            var entry = p.isEmpty ? try cursor.first() : try cursor.seek(atLeast: p)
            while let (k, v) = entry {
                guard k.count >= p.count, p.isEmpty || k.prefix(p.count).elementsEqual(p) else { return }
                if try body(k, v) == .stop { return }
                entry = try cursor.next()
            }
        }
    }

    /// Visits every entry of `db` in key order.
    public func scan(_ db: Database,
                     _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> ScanStep) throws {
        try scan(db, prefix: [UInt8](), body)
    }
}
