import CLMDB
import Foundation

/// An LMDB environment: one memory-mapped file (`data.mdb` + `lock.mdb` in a directory),
/// many named sub-databases, one writer and many readers (MVCC: readers never block the writer).
///
/// A final class owns the `MDB_env` and closes it in `deinit`. The environment is opened with
/// `MDB_NOTLS`, so a read transaction is not tied to a thread; a write transaction begins and
/// ends inside one synchronous `write { }` closure on one thread and never crosses an `await`.
///
/// When the map fills (`MDB_MAP_FULL`), `write` aborts the transaction, grows the map with
/// `mdb_env_set_mapsize` and runs the closure again — so a `write` body must be re-runnable
/// (it must not consume a one-shot input it cannot replay). Do not call `write` (or anything
/// that grows the map) from inside a `read` closure on the same thread: growth waits for this
/// process's readers to finish.
public final class Environment: @unchecked Sendable {
    /// How an environment is opened.
    public struct Options: Sendable {
        /// Initial map size in bytes (rounded up to the page size by LMDB). The map grows on
        /// demand; the size is also stored in the file and the larger one wins on open.
        public var mapSize: Int = 256 << 20
        /// The most named sub-databases the environment may hold.
        public var maxDatabases: UInt32 = 32
        /// Reader slots (concurrent read transactions across processes).
        public var maxReaders: UInt32 = 126
        /// `MDB_WRITEMAP`: write through the shared map instead of `pwrite` (still durable:
        /// commit `msync`s). Faster for large values; the file becomes sparse at the map size.
        public var writeMap: Bool = false
        /// `MDB_NOSYNC`: not durable. Only for measurements; never the default.
        public var noSync: Bool = false
        /// Open read-only (`MDB_RDONLY`). `write` then throws `LMDBError.readOnly` (`EROFS`).
        public var readOnly: Bool = false
        /// `MDB_NOLOCK`: no lock file, no reader table. Only with `readOnly`, and only when no
        /// other process can have the environment open (`Environment.isInUse`): a writer would
        /// not see this process's snapshot and could reuse its pages.
        public var noLock: Bool = false
        /// Permission bits of `data.mdb` and `lock.mdb`.
        public var fileMode: mode_t = 0o600
        /// Largest single growth step of the map.
        public var maxGrowthStep: Int = 8 << 30

        public init() {}
    }

    /// The directory holding `data.mdb` and `lock.mdb`.
    public let path: String
    public let options: Options
    let env: OpaquePointer
    let mapLock = ReadWriteLock()
    private let handles = NSLock()
    /// Bytes streamed through the map since this process last dropped its mappings of it
    /// (`Environment+Residency.swift`).
    let streamed = StreamedBytes()
    nonisolated(unsafe) private var databases: [String: Database] = [:]

    /// Opens (creating the files if needed) the environment in the existing directory `path`.
    ///
    /// Every failure closes the half-made `MDB_env` once, here, before `self` is complete (so
    /// `deinit`, which closes it too, never runs for it: the double free of issue 17).
    public init(path: String, options: Options = Options()) throws {
        var raw: OpaquePointer?
        try LMDBError.check(mdb_env_create(&raw), "mdb_env_create")
        guard let env = raw else { throw LMDBError(code: ENOMEM, operation: "mdb_env_create") }
        do {
            try LMDBError.check(mdb_env_set_maxdbs(env, options.maxDatabases), "mdb_env_set_maxdbs")
            try LMDBError.check(mdb_env_set_maxreaders(env, options.maxReaders), "mdb_env_set_maxreaders")
            try LMDBError.check(mdb_env_set_mapsize(env, options.mapSize), "mdb_env_set_mapsize")
            var flags = UInt32(MDB_NOTLS)
            if options.writeMap { flags |= UInt32(MDB_WRITEMAP) }
            if options.noSync { flags |= UInt32(MDB_NOSYNC) }
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if options.readOnly && options.noLock { flags |= UInt32(MDB_NOLOCK) }
            try LMDBError.check(mdb_env_open(env, path, flags, options.fileMode), "mdb_env_open")
        } catch {
            mdb_env_close(env)
            throw error
        }
        self.path = path
        self.options = options
        self.env = env
        // MDB_WRITEMAP maps a sparse file: a page first touched on a full disk is SIGBUS.
        // The whole map is allocated now, so a full disk is a clean ENOSPC here instead.
        if options.writeMap && !options.readOnly { try allocateMap(unlockedInfo().mapSize) }
    }

    deinit { mdb_env_close(env) }

    // MARK: Transactions

    /// Runs `body` in a read-only snapshot. Values borrowed from the map are valid only
    /// inside `body`.
    public func read<R>(_ body: (Transaction) throws -> R) throws -> R {
        var attempts = 0
        while true {
            do {
                return try mapLock.withShared {
                    let txn = try begin(readOnly: true)
                    defer { txn.abort() }
                    let result = try body(txn)
                    // Committing (not aborting) keeps database handles opened inside the snapshot.
                    try txn.commit()
                    return result
                }
            } catch is MapResizedElsewhere where attempts < 16 {
                attempts += 1
                try adoptMapSize()
            }
        }
    }

    /// Runs `body` in the write transaction and commits it durably; a throw aborts it.
    /// On `MDB_MAP_FULL` the map grows and `body` runs again from the start.
    public func write<R>(_ body: (Transaction) throws -> R) throws -> R {
        if options.readOnly { throw LMDBError.readOnly }
        var attempts = 0
        while true {
            do {
                return try mapLock.withShared {
                    let txn = try begin(readOnly: false)
                    do {
                        let result = try body(txn)
                        try txn.commit()
                        return result
                    } catch {
                        txn.abort()
                        throw error
                    }
                }
            } catch where LMDBError.underlying(error) == .mapFull && attempts < 16 {
                attempts += 1
                try grow()
            } catch is MapResizedElsewhere where attempts < 16 {
                attempts += 1
                try adoptMapSize()
            } catch where LMDBError.underlying(error)?.code == EIO {
                throw diskFullOrSame(error)
            }
        }
    }

    private func begin(readOnly: Bool) throws -> Transaction {
        var raw: OpaquePointer?
        let rc = mdb_txn_begin(env, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &raw)
        // Another process grew the map. Adopting its size remaps, which must not happen while
        // this process has transactions open: the caller leaves the shared lock and adopts it
        // under the exclusive one (`adoptMapSize`), then begins again.
        if rc == MDB_MAP_RESIZED { throw MapResizedElsewhere() }
        try LMDBError.check(rc, "mdb_txn_begin")
        guard let txn = raw else { throw LMDBError(code: ENOMEM, operation: "mdb_txn_begin") }
        return Transaction(txn: txn, readOnly: readOnly)
    }

    // MARK: Databases

    /// The handle of the named sub-database, opening (and with `create`, creating) it once.
    public func database(_ name: String, create: Bool = false) throws -> Database {
        handles.lock()
        defer { handles.unlock() }
        if let db = databases[name] { return db }
        let open: (Transaction) throws -> Database = { txn in
            var dbi: MDB_dbi = 0
            let flags = create ? UInt32(MDB_CREATE) : 0
            try LMDBError.check(mdb_dbi_open(txn.txn, name, flags, &dbi), "mdb_dbi_open(\(name))")
            return Database(name: name, dbi: dbi)
        }
        let db = (create && !options.readOnly) ? try write(open) : try read(open)
        databases[name] = db
        return db
    }

    // MARK: Map size

    /// Map size, page size and how much of the map is in use.
    public struct Info: Sendable, Equatable {
        public let mapSize: Int
        public let pageSize: Int
        public let lastPage: Int
        public let maxReaders: Int
        public let readers: Int
        /// Bytes of the map up to the last used page (a high-water mark; freed pages are reused).
        public var usedBytes: Int { (lastPage + 1) * pageSize }
    }

    /// Takes the map lock shared: `mdb_env_info` reads the meta pages inside the map, which
    /// another thread's `grow` may be remapping (reading it unlocked crashed under load).
    public func info() -> Info {
        mapLock.withShared { unlockedInfo() }
    }

    /// `info()` for callers that already hold the map lock.
    private func unlockedInfo() -> Info {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        _ = mdb_env_info(env, &info)
        _ = mdb_env_stat(env, &stat)
        return Info(mapSize: info.me_mapsize, pageSize: Int(stat.ms_psize), lastPage: info.me_last_pgno,
                    maxReaders: Int(info.me_maxreaders), readers: Int(info.me_numreaders))
    }

    /// Grows the map so that at least `headroom` bytes are free past the last used page.
    /// Call between write transactions (not inside one).
    public func ensureHeadroom(_ headroom: Int) throws {
        let now = info()
        if now.mapSize - now.usedBytes < headroom {
            try grow(toAtLeast: now.usedBytes + headroom)
        }
    }

    /// Grows the map: doubles it (capped at `maxGrowthStep`) or to `toAtLeast`, whichever is
    /// larger. Waits for this process's read transactions to end (the map is remapped).
    public func grow(toAtLeast minimum: Int = 0) throws {
        try mapLock.withExclusive {
            let current = unlockedInfo().mapSize
            let step = min(max(current, 1 << 20), options.maxGrowthStep)
            let target = max(current + step, minimum)
            try LMDBError.check(mdb_env_set_mapsize(env, target), "mdb_env_set_mapsize")
            if options.writeMap {
                do { try allocateMap(target) } catch {
                    // Back to the allocated size: no page of the unallocated tail is ever mapped.
                    _ = mdb_env_set_mapsize(env, current)
                    throw error
                }
            }
        }
    }

    /// Adopts the map size another process set (`MDB_MAP_RESIZED`), with no transaction of
    /// this process open.
    private func adoptMapSize() throws {
        try mapLock.withExclusive {
            try LMDBError.check(mdb_env_set_mapsize(env, 0), "mdb_env_set_mapsize")
        }
    }

    /// Flushes buffers to disk (needed only with `noSync`).
    public func sync(force: Bool = true) throws {
        try LMDBError.check(mdb_env_sync(env, force ? 1 : 0), "mdb_env_sync")
    }
}

/// `mdb_txn_begin` answered `MDB_MAP_RESIZED`: thrown inside the shared lock, caught outside it.
struct MapResizedElsewhere: Error {}
