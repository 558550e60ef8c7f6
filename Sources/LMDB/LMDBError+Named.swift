import Foundation
import Ground

/// LMDB's failures under the codes the CLI has always printed for them (`cas.storage`,
/// `cas.storage.diskFull`, `cas.readOnly`, …; docs/cas.md), so a caller maps them to an exit
/// code through `Ground.StorageFailure` without importing this module.
extension LMDBError: StorageFailure {
    public var statusCode: String { kind.code }

    /// `code: meaning: description`, or `code: description` when the code says it all.
    public var explanation: String { kind.meaning.map { "\(statusCode): \($0): \(self)" } ?? "\(statusCode): \(self)" }

    /// The named code of this failure, and what it means for the user.
    var kind: (code: String, meaning: String?) {
        if isDiskFull { return (StatusCode.casStorageDiskFull, "disk full (archive kept as of the last commit)") }
        if isReadOnly {
            return (StatusCode.casReadOnly, "the archive can only be read here (read-only file system or opened read-only); reading commands still work")
        }
        if isPermissionDenied {
            return (StatusCode.casStoragePermissionDenied, "this user may not open the archive's files as needed (permissions, or an immutable file)")
        }
        if isNotLMDB {
            return (StatusCode.casStorageInvalid, "data.mdb is not an LMDB environment this program reads (damaged header or other version)")
        }
        if [Errno.isDirectory, .tooManySymbolicLinkLevels, .noDevice].contains(Errno(rawValue: code)) {
            return (StatusCode.casStorageNotAFile, "data.mdb and lock.mdb must be regular files (not a directory, link or device)")
        }
        if Errno(rawValue: code) == .busy { return (StatusCode.casStorageBusy, "the archive cannot be read safely now") }
        return (StatusCode.casStorage, nil)
    }
}

extension WrapsLMDBError {
    /// The LMDB failure carried, as a `StorageFailure`.
    public var storageFailure: (any StorageFailure)? { lmdbError }
}
