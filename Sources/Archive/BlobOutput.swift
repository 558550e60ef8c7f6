import Foundation
import Ground

/// Where `get -o PATH` and `export` write a blob, for every blob store: a FIFO or character
/// device in place, a new path or a regular file through a temporary file beside it renamed
/// over it only when the whole blob matched its ID, anything else refused
/// (`cas.output.refused`). Failures keep the codes and texts LMDB's store always gave them.
public enum BlobOutput {
    /// Writes what `read` streams to `path`: a FIFO or character device in place, anything but
    /// a regular file or a new path refused (`cas.output.refused`), else a temporary file beside
    /// it renamed over `path` only when `read` returned.
    public static func write(to path: String, _ read: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        if try outputTarget(path) == .stream { return try stream(into: path, read) }
        let dir = (path as NSString).deletingLastPathComponent
        let temp = (dir.isEmpty ? "." : dir) + "/.\((path as NSString).lastPathComponent).\(getpid()).partial"
        let fd = try createTemporary(temp)
        var ok = false
        defer { if !ok { try? FileSystem.remove(temp) } }
        try read { buf in
            do throws(Errno) { try fd.write(all: buf) } catch { throw BlobFileError.input(path: temp, errno: error.rawValue) }
        }
        do { try FileSystem.rename(temp, to: path) } catch { throw BlobFileError.input(path: path, errno: error.rawValue) }
        ok = true
    }

    /// Where `get -o PATH` (and `export`) may write.
    enum OutputTarget: Equatable {
        /// A new path or a regular file: written to a temporary file beside it, renamed over it
        /// only when every byte matched.
        case replace
        /// A FIFO or a character device (a pipe to another program, a terminal, /dev/null):
        /// opened as it is and written in place — never renamed over, so the node stays. Bytes
        /// before a damaged chunk have then been written, as on stdout.
        case stream
    }

    /// Classifies `path` with `lstat` (a symbolic link is not followed, and refused), or throws
    /// `cas.output.refused` for a directory, a block device, a socket or a link.
    static func outputTarget(_ path: String) throws -> OutputTarget {
        let st: FileStatus
        do { st = try FileSystem.status(atPath: path) } catch {
            if error == .noSuchFileOrDirectory { return .replace }
            throw BlobFileError.input(path: path, errno: error.rawValue)
        }
        switch st.kind {
        case .regular: return .replace
        case .fifo, .characterDevice: return .stream
        case .symlink: throw BlobFileError.outputRefused(path: path, reason: "a symbolic link (not followed)")
        case .directory: throw BlobFileError.outputRefused(path: path, reason: "a directory")
        case .blockDevice: throw BlobFileError.outputRefused(path: path, reason: "a block device")
        case .socket, .unknown: throw BlobFileError.outputRefused(path: path, reason: "not a regular file, FIFO or character device")
        }
    }

    /// Writes the blob into an existing FIFO or character device: opened without creating,
    /// truncating or following a link, and checked again on the descriptor (`fstat`), so a node
    /// swapped for something else after `lstat` is refused.
    static func stream(into path: String, _ read: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let fd: FileDescriptor
        let kind: FileStatus.Kind
        do {
            fd = try FileDescriptor.open(path, .write)
            kind = try fd.status().kind
        } catch { throw BlobFileError.input(path: path, errno: error.rawValue) }
        guard kind == .fifo || kind == .characterDevice else {
            throw BlobFileError.outputRefused(path: path, reason: "changed while being opened")
        }
        try read { buf in
            do throws(Errno) { try fd.write(all: buf) } catch { throw BlobFileError.input(path: path, errno: error.rawValue) }
        }
    }

    /// Creates the temporary file of a replacing write: `O_EXCL | O_NOFOLLOW`, so a file or a
    /// link already at that name (left by a killed process with the same pid, or planted) is
    /// never written through; a stale one is removed (the name, not what a link points to) and
    /// the create tried once more.
    static func createTemporary(_ temp: String) throws -> FileDescriptor {
        var last = Errno.fileExists
        for attempt in 0..<2 {
            do { return try FileDescriptor.create(temp, exclusive: true) } catch {
                last = error
                guard error == .fileExists, attempt == 0 else { break }
                try? FileSystem.remove(temp)
            }
        }
        throw BlobFileError.input(path: temp, errno: last.rawValue)
    }
}

/// A failed read or write of a file a blob comes from or goes to (`BlobOutput`, a `put` of a
/// file): the codes and texts of LMDB's `CASError.input` and `.outputRefused`, which it threw
/// before these served every store.
public enum BlobFileError: Error, Equatable, Sendable, BlobStoreFailure {
    /// Opening, reading, writing or renaming the file failed.
    case input(path: String, errno: Int32)
    /// Not a regular file, a new path, a FIFO or a character device (a directory, a block
    /// device, a symbolic link, a socket).
    case outputRefused(path: String, reason: String)

    public var statusCode: String {
        switch self {
        case .input: StatusCode.casInput
        case .outputRefused: StatusCode.casOutputRefused
        }
    }

    public var description: String {
        switch self {
        case .input(let p, let e): "\(statusCode): \(p): \(Errno(rawValue: e))"
        case .outputRefused(let p, let r): "\(statusCode): \(p) is \(r); -o writes only to a regular file, a new path, a FIFO or a character device"
        }
    }

    public var fileFailure: (path: String, errno: Int32)? {
        if case .input(let path, let errno) = self { return (path, errno) }
        return nil
    }

    public var archiveUnusable: Bool { false }
}
