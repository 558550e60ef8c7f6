import Ground

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
        let st: FileStatus
        do { st = try FileSystem.status(atPath: path) } catch {
            if error == .noSuchFileOrDirectory { return .replace }
            throw CASError.input(path: path, errno: error.rawValue)
        }
        switch st.kind {
        case .regular: return .replace
        case .fifo, .characterDevice: return .stream
        case .symlink: throw CASError.outputRefused(path: path, reason: "a symbolic link (not followed)")
        case .directory: throw CASError.outputRefused(path: path, reason: "a directory")
        case .blockDevice: throw CASError.outputRefused(path: path, reason: "a block device")
        case .socket, .unknown: throw CASError.outputRefused(path: path, reason: "not a regular file, FIFO or character device")
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
        } catch { throw CASError.input(path: path, errno: error.rawValue) }
        guard kind == .fifo || kind == .characterDevice else {
            throw CASError.outputRefused(path: path, reason: "changed while being opened")
        }
        try read { buf in
            do throws(Errno) { try fd.write(all: buf) } catch { throw CASError.input(path: path, errno: error.rawValue) }
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
        throw CASError.input(path: temp, errno: last.rawValue)
    }
}
