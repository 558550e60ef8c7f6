/// An open file or directory, owned: closed when the last reference goes (`deinit`). Every
/// open goes through `Syscalls` with `O_NOFOLLOW | O_CLOEXEC`, so a symlink is never followed
/// at the component being opened; opening relative to a directory descriptor (`open(_:in:)`)
/// never re-resolves a path string, which is how the dump walk stays inside the dump.
public final class FileDescriptor: @unchecked Sendable {
    public let rawValue: Int32
    private let owned: Bool

    init(owning fd: Int32) {
        rawValue = fd
        owned = true
    }

    private init(borrowing fd: Int32) {
        rawValue = fd
        owned = false
    }

    deinit { if owned { Syscalls.close(rawValue) } }

    /// The process's standard output and error (never closed).
    public static let standardOutput = FileDescriptor(borrowing: 1)
    public static let standardError = FileDescriptor(borrowing: 2)

    /// How an entry is opened for reading.
    public enum Mode: Sendable {
        /// A file to read: `O_RDONLY | O_NONBLOCK | O_NOCTTY` (a FIFO or a device never blocks
        /// the open; the caller checks `status()` before reading).
        case read
        /// A directory: `O_RDONLY | O_DIRECTORY`.
        case directory
        /// An existing file, FIFO or device to write in place: `O_WRONLY | O_NOCTTY` (never
        /// created or truncated).
        case write

        var flags: Int32 {
            switch self {
            case .read: Syscalls.readOnly | Syscalls.nonBlocking
            case .directory: Syscalls.readOnly | Syscalls.directory
            case .write: Syscalls.writeExisting
            }
        }
    }

    /// Opens `path` (a path a person gave: its last component is never followed).
    public static func open(_ path: String, _ mode: Mode) throws(Errno) -> FileDescriptor {
        FileDescriptor(owning: try Syscalls.open(path, mode.flags, 0))
    }

    /// Creates a file for writing: `exclusive` fails when it exists (`O_EXCL`), else it is
    /// truncated. `permissions` as for `open(2)`.
    public static func create(_ path: String, exclusive: Bool, permissions: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        FileDescriptor(owning: try Syscalls.open(path, exclusive ? Syscalls.writeCreateExclusive : Syscalls.writeCreateTruncate,
                                                 permissions))
    }

    /// Opens the entry `name` of this directory, never through a symlink.
    public func open(_ name: FileName, _ mode: Mode) throws(Errno) -> FileDescriptor {
        FileDescriptor(owning: try Syscalls.openat(rawValue, name.bytes, mode.flags, 0))
    }

    /// `fstat` of this descriptor.
    public func status() throws(Errno) -> FileStatus { try Syscalls.fstat(rawValue) }

    /// `fstatat(…, AT_SYMLINK_NOFOLLOW)` of the entry `name` of this directory.
    public func status(of name: FileName) throws(Errno) -> FileStatus { try Syscalls.fstatat(rawValue, name.bytes) }

    /// The target of the symlink `name` of this directory (`readlinkat`), as bytes.
    public func linkTarget(of name: FileName) throws(Errno) -> [UInt8] { try Syscalls.readlinkat(rawValue, name.bytes) }

    /// The entries of this directory (no `.`/`..`), sorted by their bytes.
    public func entries() throws(Errno) -> [FileName] {
        try Syscalls.entries(rawValue).compactMap { FileName(bytes: $0) }.sorted()
    }

    /// At most `limit` entries of this directory (no `.`/`..`), sorted by their bytes: the walk
    /// asks for one more than it accepts, so that a directory over its cap is told apart.
    public func entries(limit: Int) throws(Errno) -> [FileName] {
        try Syscalls.entries(rawValue, limit: limit).compactMap { FileName(bytes: $0) }.sorted()
    }

    /// `pread` into `buffer` at `offset`: the bytes read, 0 at the end.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try Syscalls.pread(rawValue, buffer, offset)
    }

    /// Writes every byte of `buffer`.
    public func write(all buffer: UnsafeRawBufferPointer) throws(Errno) {
        var done = 0
        while done < buffer.count {
            done += try Syscalls.write(rawValue, UnsafeRawBufferPointer(rebasing: buffer[done...]))
        }
    }

    public func sync() throws(Errno) { try Syscalls.fsync(rawValue) }
}

/// Path-level operations a person's path needs (the walk uses descriptors instead).
public enum FileSystem {
    /// `lstat` of a path: what is there, a final symlink described, not followed.
    public static func status(atPath path: String) throws(Errno) -> FileStatus { try Syscalls.lstat(path) }

    public static func rename(_ from: String, to: String) throws(Errno) { try Syscalls.rename(from, to) }

    public static func remove(_ path: String) throws(Errno) { try Syscalls.unlink(path) }

    /// The target of the symlink at `path` (`readlink`), as bytes.
    public static func linkTarget(atPath path: String) throws(Errno) -> [UInt8] {
        try Syscalls.readlinkat(Syscalls.currentDirectoryDescriptor, Syscalls.pathBytes(path))
    }

    /// The entries of the directory at `path` (opened without following a final symlink),
    /// sorted by their bytes.
    public static func entries(atPath path: String) throws(Errno) -> [FileName] {
        try FileDescriptor.open(path, .directory).entries()
    }

    /// The working directory (absolute), `/` when it cannot be read.
    public static var currentDirectory: String { Syscalls.currentDirectory }
}
