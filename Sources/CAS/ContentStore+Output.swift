import Foundation

extension ContentStore {
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
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return .replace }
            throw CASError.input(path: path, errno: errno)
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .replace
        case S_IFIFO, S_IFCHR: return .stream
        case S_IFLNK: throw CASError.outputRefused(path: path, reason: "a symbolic link (not followed)")
        case S_IFDIR: throw CASError.outputRefused(path: path, reason: "a directory")
        case S_IFBLK: throw CASError.outputRefused(path: path, reason: "a block device")
        default: throw CASError.outputRefused(path: path, reason: "not a regular file, FIFO or character device")
        }
    }

    /// Writes the blob into an existing FIFO or character device: opened without creating,
    /// truncating or following a link, and checked again on the descriptor (`fstat`), so a node
    /// swapped for something else after `lstat` is refused.
    func stream(_ id: ContentID, into path: String, verify: Bool) throws {
        let fd = Foundation.open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw CASError.input(path: path, errno: errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw CASError.input(path: path, errno: errno) }
        let type = st.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFCHR else {
            throw CASError.outputRefused(path: path, reason: "changed while being opened")
        }
        try read(id, verify: verify) { buf in try Self.writeAll(fd, buf, path: path) }
    }

    /// Creates the temporary file of a replacing write: `O_EXCL | O_NOFOLLOW`, so a file or a
    /// link already at that name (left by a killed process with the same pid, or planted) is
    /// never written through; a stale one is removed (the name, not what a link points to) and
    /// the create tried once more.
    static func createTemporary(_ temp: String) throws -> Int32 {
        for attempt in 0..<2 {
            let fd = Foundation.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { return fd }
            guard errno == EEXIST, attempt == 0 else { break }
            unlink(temp)
        }
        throw CASError.input(path: temp, errno: errno)
    }
}
