import Crypto
import Ground

/// The few file-system questions the layout checks ask, through Ground's shim. Nothing here
/// follows a symlink.
enum LayoutFileSystem {
    enum Kind: Equatable, Sendable {
        case regular(size: Int64)
        case directory
        case symlink(target: String)
        case other
        case absent
    }

    /// What is at `path`, without following a final symlink.
    static func kind(_ path: String) -> Kind {
        guard let st = try? FileSystem.status(atPath: path) else { return .absent }
        switch st.kind {
        case .regular: return .regular(size: st.size)
        case .directory: return .directory
        case .symlink: return .symlink(target: (try? FileSystem.linkTarget(atPath: path)).map { PathText.encode($0) } ?? "")
        default: return .other
        }
    }

    /// Entry names of a directory (no `.`/`..`), sorted bytewise; nil when it cannot be opened.
    static func list(_ path: String) -> [String]? {
        (try? FileSystem.entries(atPath: path))?.map(\.text)
    }

    static var currentDirectory: String { FileSystem.currentDirectory }

    /// Streams a regular file's SHA-256, refusing symlinks and non-regular files.
    static func sha256(_ path: String) throws(EvidenceReadError) -> ContentID {
        let file: FileByteSource
        do { file = try FileByteSource(opening: path, limit: FileLimits.current) } catch {
            switch error {
            case .symlink: throw .symlink(path)
            case .cannotOpen(_, let e) where e == .noSuchFileOrDirectory: throw .absent(path)
            case .cannotOpen(_, let e): throw .unreadable(path, errno: e.rawValue)
            case .notRegularFile, .tooLarge: throw .notRegularFile(path)
            }
        }
        return try sha256(file)
    }

    /// Streams an opened regular file's SHA-256, then proves it unchanged.
    static func sha256(_ file: FileByteSource) throws(EvidenceReadError) -> ContentID {
        let path = file.path
        let hasher = StreamingSHA256()
        do { try file.forEachChunkInPlace(in: 0..<file.count) { hasher.update($0) } } catch {
            throw .unreadable(path, errno: error.errno)
        }
        // A file that changed or whose size is not its content (`/proc`) is not hashed as what it was.
        do { try file.confirmUnchanged() } catch { throw .unreadable(path, errno: Errno.ioError.rawValue) }
        return hasher.finalize()
    }
}

/// Why an evidence file could not be hashed.
public enum EvidenceReadError: Error, Equatable, Sendable {
    case absent(String)
    case symlink(String)
    case notRegularFile(String)
    case unreadable(String, errno: Int32)

    public var code: String {
        switch self {
        case .absent: StatusCode.evidenceAbsent
        case .symlink: StatusCode.evidenceSymlink
        case .notRegularFile: StatusCode.evidenceNotRegularFile
        case .unreadable: StatusCode.evidenceUnreadable
        }
    }
}
