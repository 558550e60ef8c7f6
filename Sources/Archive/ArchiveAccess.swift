/// How a command opens an archive (`ArchiveOpener.open(access:)`; LMDB's `ContentStore.Access`).
public enum ArchiveAccess: Sendable, Equatable {
    /// Read and write (every command that stores, indexes or logs).
    case readWrite
    /// Read and write when this process may; otherwise read-only (reading commands on an
    /// archive on a read-only file system, on another user's files, or with an immutable
    /// `lock.mdb`). Writes on a store opened so throw `cas.readOnly`.
    case readIfNotWritable
}
