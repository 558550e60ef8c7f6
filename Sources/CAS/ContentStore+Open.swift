import Archive
import Foundation
import Ground
import LMDB

extension ContentStore {
    /// How a command opens an archive (`ArchiveAccess`, the protocols' name for it).
    public typealias Access = ArchiveAccess

    /// `data.mdb` must be a regular file (not a directory, a symlink or a device), and so must
    /// `lock.mdb` when it exists: LMDB would follow a link, and a directory used to abort the
    /// process (issue 17). Checked with `lstat`, before LMDB opens anything.
    static func checkFiles(_ directory: String) throws {
        for (name, required) in [("data.mdb", true), ("lock.mdb", false)] {
            let st: FileStatus
            do { st = try FileSystem.status(atPath: directory + "/" + name) } catch {
                if error == .noSuchFileOrDirectory && !required { continue }
                if error == .noSuchFileOrDirectory || error == .notDirectory { throw CASError.notAnArchive(path: directory) }
                throw CASError.storage(LMDBError(code: error.rawValue, operation: "lstat(\(name))"))
            }
            switch st.kind {
            case .regular: continue
            case .symlink:
                throw CASError.storage(LMDBError(code: Errno.tooManySymbolicLinkLevels.rawValue, operation: "\(name) is a symbolic link"))
            case .directory: throw CASError.storage(LMDBError(code: Errno.isDirectory.rawValue, operation: "\(name) is a directory"))
            default: throw CASError.storage(LMDBError(code: Errno.noDevice.rawValue, operation: "\(name) is not a regular file"))
            }
        }
    }

    /// Opens with `make`, falling back for `.readIfNotWritable` to a read-only environment
    /// when the read-write open failed with `EROFS`, `EACCES` or `EPERM`. When even the
    /// read-only open is refused because `lock.mdb` cannot be opened for writing, the archive
    /// is read without the lock file (`MDB_NOLOCK`) — but only when no process has it open
    /// (`Environment.isInUse`), since a writer would not see this reader; otherwise
    /// `cas.storage.busy`.
    static func openEnvironment(_ directory: String, options: Options, access: Access,
                                make: (Options) throws -> ContentStore) throws -> ContentStore {
        do {
            return try make(options)
        } catch let first as CASError where access == .readIfNotWritable && !options.environment.readOnly {
            guard let e = first.lmdbError, e.isReadOnly || e.isPermissionDenied else { throw first }
            var readOnly = options
            readOnly.environment.readOnly = true
            do {
                return try make(readOnly)
            } catch let second as CASError where second.lmdbError?.isPermissionDenied == true {
                switch Environment.isInUse(directory: directory) {
                case false?:
                    readOnly.environment.noLock = true
                    return try make(readOnly)
                case true?:
                    throw CASError.storage(LMDBError(code: EBUSY, operation:
                        "lock.mdb is not writable by this user and another process has the archive open"))
                case nil:
                    throw second
                }
            }
        }
    }
}
