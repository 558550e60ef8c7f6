import Archive
import Ground

extension CASError: NamedError {
    public var statusCode: String { code }
}

extension CASError: BlobStoreFailure {
    /// `.input`'s file and `errno`.
    public var fileFailure: (path: String, errno: Int32)? {
        if case .input(let path, let errno) = self { return (path, errno) }
        return nil
    }

    /// No archive, an unsupported format, or the LMDB environment failed.
    public var archiveUnusable: Bool {
        switch self {
        case .notAnArchive, .unsupportedFormat, .storage: true
        default: false
        }
    }
}
