import CLMDB
import Foundation

/// An LMDB transaction, lent to a `read { }` or `write { }` closure. It must not escape the
/// closure; values it returns as `UnsafeRawBufferPointer` borrow the map and are valid only
/// until the closure returns (copy them, or consume them inside).
public final class Transaction {
    let txn: OpaquePointer
    public let isReadOnly: Bool
    private var finished = false

    init(txn: OpaquePointer, readOnly: Bool) {
        self.txn = txn
        self.isReadOnly = readOnly
    }

    func commit() throws {
        guard !finished else { return }
        finished = true
        try LMDBError.check(mdb_txn_commit(txn), "mdb_txn_commit")
    }

    func abort() {
        guard !finished else { return }
        finished = true
        mdb_txn_abort(txn)
    }

    /// Flags of `put`.
    public struct PutFlags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `MDB_NOOVERWRITE`: put-if-absent.
        public static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
        /// `MDB_APPEND`: keys arrive in sorted order (fast bulk load).
        public static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
    }

    // MARK: Reads

    /// The value of `key`, borrowed from the map (valid until the transaction ends), or nil.
    public func get(_ db: Database, _ key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let rc = mdb_get(txn, db.dbi, &k, &v)
        if rc == MDB_NOTFOUND { return nil }
        try LMDBError.check(rc, "mdb_get(\(db.name))")
        return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
    }

    /// Drops this process's mappings of the map pages under `value` (a value this read
    /// transaction returned, already consumed): `madvise(MADV_DONTNEED)` on the whole pages it
    /// spans. The bytes stay in the page cache and a later access maps them again, so nothing
    /// is lost or changed; what changes is that streaming a large value (a blob's chunks) no
    /// longer leaves it resident in the process, so RSS stays bounded however large the value.
    /// A no-op in a write transaction (its pages may be LMDB's dirty copies) and for values
    /// under 64 KiB.
    public func releasePages(of value: UnsafeRawBufferPointer) {
        guard isReadOnly, value.count >= 64 << 10, let base = value.baseAddress else { return }
        let page = UInt(Transaction.pageSize)
        let start = UInt(bitPattern: base) & ~(page - 1)
        let end = (UInt(bitPattern: base) + UInt(value.count) + page - 1) & ~(page - 1)
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_DONTNEED)
    }

    private static let pageSize = max(4096, sysconf(Int32(_SC_PAGESIZE)))

    /// A copy of the value of `key`, or nil.
    public func value<Key: ContiguousBytes>(_ db: Database, _ key: Key) throws -> [UInt8]? {
        try key.withUnsafeBytes { k in try get(db, k).map { Array($0) } }
    }

    /// Calls `body` with the borrowed value of `key` (nil when absent).
    public func withValue<Key: ContiguousBytes, R>(_ db: Database, _ key: Key,
                                                   _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        try key.withUnsafeBytes { k in try body(try get(db, k)) }
    }

    public func contains<Key: ContiguousBytes>(_ db: Database, _ key: Key) throws -> Bool {
        try withValue(db, key) { $0 != nil }
    }

    // MARK: Writes

    /// Stores `value` under `key`. With `.noOverwrite`, returns false (and changes nothing)
    /// when the key already exists.
    @discardableResult
    public func put<Key: ContiguousBytes, Value: ContiguousBytes>(_ db: Database, _ key: Key, _ value: Value,
                                                                  flags: PutFlags = []) throws -> Bool {
        try key.withUnsafeBytes { k in
            try value.withUnsafeBytes { v in try put(db, k, v, flags: flags) }
        }
    }

    @discardableResult
    public func put(_ db: Database, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer,
                    flags: PutFlags = []) throws -> Bool {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(txn, db.dbi, &k, &v, flags.rawValue)
        if rc == MDB_KEYEXIST && flags.contains(.noOverwrite) { return false }
        try LMDBError.check(rc, "mdb_put(\(db.name))")
        return true
    }

    /// Reserves `count` bytes for `key` (`MDB_RESERVE`) and lets `fill` write them in place.
    /// Returns false when `.noOverwrite` is given and the key exists.
    @discardableResult
    public func reserve<Key: ContiguousBytes>(_ db: Database, _ key: Key, count: Int, flags: PutFlags = [],
                                              fill: (UnsafeMutableRawBufferPointer) throws -> Void) throws -> Bool {
        try key.withUnsafeBytes { kb in
            var k = MDB_val(mv_size: kb.count, mv_data: UnsafeMutableRawPointer(mutating: kb.baseAddress))
            var v = MDB_val(mv_size: count, mv_data: nil)
            let rc = mdb_put(txn, db.dbi, &k, &v, flags.rawValue | UInt32(MDB_RESERVE))
            if rc == MDB_KEYEXIST && flags.contains(.noOverwrite) { return false }
            try LMDBError.check(rc, "mdb_put(\(db.name), MDB_RESERVE)")
            try fill(UnsafeMutableRawBufferPointer(start: v.mv_data, count: count))
            return true
        }
    }

    /// Deletes `key`; returns false when it was absent.
    @discardableResult
    public func delete<Key: ContiguousBytes>(_ db: Database, _ key: Key) throws -> Bool {
        try key.withUnsafeBytes { kb in
            var k = MDB_val(mv_size: kb.count, mv_data: UnsafeMutableRawPointer(mutating: kb.baseAddress))
            let rc = mdb_del(txn, db.dbi, &k, nil)
            if rc == MDB_NOTFOUND { return false }
            try LMDBError.check(rc, "mdb_del(\(db.name))")
            return true
        }
    }

    /// Number of entries in `db`.
    public func count(_ db: Database) throws -> Int {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(txn, db.dbi, &stat), "mdb_stat(\(db.name))")
        return stat.ms_entries
    }

    /// Pages used by `db` (branch + leaf + overflow).
    public func pages(_ db: Database) throws -> Int {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(txn, db.dbi, &stat), "mdb_stat(\(db.name))")
        return stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages
    }
}
