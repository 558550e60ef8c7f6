import CLMDB
import Foundation

extension Environment {
    /// Free space below which an `EIO` from a write is taken for a full disk (LMDB 0.9.24
    /// reports a short `pwrite` — what a full file system gives — as `EIO` from
    /// `mdb_txn_commit`; a write transaction of this project is far smaller than this).
    public static let diskFullMargin: UInt64 = 64 << 20

    /// Free bytes of the file system holding the environment (for this user), or nil.
    public func freeBytes() -> UInt64? {
        var fs = statvfs()
        guard statvfs(path, &fs) == 0 else { return nil }
        return UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
    }

    /// `ENOSPC` in place of an `EIO` when the file system is (nearly) full; else `error`.
    func diskFullOrSame(_ error: any Error) -> any Error {
        guard let e = LMDBError.underlying(error), e.code == EIO,
              let free = freeBytes(), free < Self.diskFullMargin else { return error }
        return LMDBError(code: ENOSPC, operation: "\(e.operation) (EIO with \(free) bytes free)")
    }

    /// Allocates `data.mdb` up to `size` bytes (`posix_fallocate`), so that with `MDB_WRITEMAP`
    /// no page of the map is a hole: storing into a hole the file system cannot fill is a
    /// SIGBUS, not an error. Throws `ENOSPC` (`cas.storage.diskFull`) when there is no room.
    func allocateMap(_ size: Int) throws {
        var fd: Int32 = -1
        try LMDBError.check(mdb_env_get_fd(env, &fd), "mdb_env_get_fd")
        let rc = posix_fallocate(fd, 0, off_t(size))
        if rc != 0 { throw LMDBError(code: rc, operation: "posix_fallocate(data.mdb, \(size))") }
    }
}
