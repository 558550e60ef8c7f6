#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every system call of the file-system shim, in this one file (swift-system's habit): each
/// wrapper retries `EINTR`, turns `-1` into a typed `Errno`, and opens with `O_CLOEXEC` and
/// `O_NOFOLLOW` always. Nothing else in the project calls `open`, `openat`, `fstat`, `fstatat`,
/// `pread`, `readlinkat` or `readdir` directly.
enum Syscalls {
    static func open(_ path: String, _ flags: Int32, _ mode: UInt32) throws(Errno) -> Int32 {
        try withCName(pathBytes(path)) { (c) throws(Errno) -> Int32 in
            try retrying { Glibc.open(c, flags | O_CLOEXEC | O_NOFOLLOW, mode) }
        }
    }

    /// The bytes a path string names: its text form (`PathText`, as the walk reports a name
    /// that is not UTF-8) read back, so a path the archive printed opens the very entry.
    static func pathBytes(_ path: String) -> [UInt8] {
        path.utf8.contains(PathText.backslash) ? (PathText.decode(path) ?? Array(path.utf8)) : Array(path.utf8)
    }

    static func openat(_ dir: Int32, _ name: [UInt8], _ flags: Int32, _ mode: UInt32) throws(Errno) -> Int32 {
        try withCName(name) { (c) throws(Errno) -> Int32 in
            try retrying { Glibc.openat(dir, c, flags | O_CLOEXEC | O_NOFOLLOW, mode) }
        }
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    static func fstat(_ fd: Int32) throws(Errno) -> FileStatus {
        var st = stat()
        _ = try retrying { Glibc.fstat(fd, &st) }
        return status(st)
    }

    /// `fstatat(dir, name, AT_SYMLINK_NOFOLLOW)`: a final symlink is described, not followed.
    static func fstatat(_ dir: Int32, _ name: [UInt8]) throws(Errno) -> FileStatus {
        var st = stat()
        _ = try withCName(name) { (c) throws(Errno) -> Int32 in
            try retrying { Glibc.fstatat(dir, c, &st, AT_SYMLINK_NOFOLLOW) }
        }
        return status(st)
    }

    /// `lstat(path)`: for a path a person named (never followed at its last component).
    static func lstat(_ path: String) throws(Errno) -> FileStatus {
        var st = stat()
        _ = try withCName(pathBytes(path)) { (c) throws(Errno) -> Int32 in try retrying { Glibc.lstat(c, &st) } }
        return status(st)
    }

    static func readlinkat(_ dir: Int32, _ name: [UInt8]) throws(Errno) -> [UInt8] {
        var buf = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = try withCName(name) { (c) throws(Errno) -> Int in
            try retrying { buf.withUnsafeMutableBufferPointer { b in
                Glibc.readlinkat(dir, c, UnsafeMutableRawPointer(b.baseAddress!).assumingMemoryBound(to: CChar.self), b.count - 1)
            } }
        }
        return Array(buf.prefix(n))
    }

    static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int64) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retrying { Glibc.pread(fd, base, buffer.count, off_t(offset)) }
    }

    static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retrying { Glibc.write(fd, base, buffer.count) }
    }

    static func fsync(_ fd: Int32) throws(Errno) { _ = try retrying { Glibc.fsync(fd) } }

    static func rename(_ from: String, _ to: String) throws(Errno) { _ = try retrying { Glibc.rename(from, to) } }

    static func unlink(_ path: String) throws(Errno) { _ = try retrying { Glibc.unlink(path) } }

    /// Entry names of the directory open as `fd` (without `.` and `..`), in the order the file
    /// system returns them, at most `limit` (the caller asks one more than it accepts to tell
    /// "exactly the cap" from "over it"). The descriptor is duplicated for `fdopendir`, so `fd`
    /// stays open.
    static func entries(_ fd: Int32, limit: Int = .max) throws(Errno) -> [[UInt8]] {
        let copy = try retrying { Glibc.dup(fd) }
        guard let dir = fdopendir(copy) else {
            let e = Errno.current
            Glibc.close(copy)
            throw e
        }
        defer { closedir(dir) }
        rewinddir(dir)
        var names: [[UInt8]] = []
        while names.count < limit {
            errno = 0
            guard let ent = readdir(dir) else {
                if errno != 0 { throw Errno.current }
                break
            }
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [0x2e] && name != [0x2e, 0x2e] { names.append(name) }
        }
        return names
    }

    static var currentDirectory: String {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buf, buf.count) != nil else { return "/" }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static let currentDirectoryDescriptor = AT_FDCWD
    static let readOnly = O_RDONLY
    static let directory = O_DIRECTORY
    /// A FIFO or a device opens without blocking (and is refused after `fstat`).
    static let nonBlocking = O_NONBLOCK | O_NOCTTY
    static let writeExisting = O_WRONLY | O_NOCTTY
    static let writeCreateExclusive = O_WRONLY | O_CREAT | O_EXCL
    static let writeCreateTruncate = O_WRONLY | O_CREAT | O_TRUNC

    private static func status(_ st: stat) -> FileStatus {
        let kind: FileStatus.Kind = switch st.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFLNK: .symlink
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        default: .unknown
        }
        return FileStatus(kind: kind, permissions: UInt32(st.st_mode & 0o7777), identity: .init(
            device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
            modified: .init(seconds: Int64(st.st_mtim.tv_sec), nanoseconds: Int64(st.st_mtim.tv_nsec)),
            changed: .init(seconds: Int64(st.st_ctim.tv_sec), nanoseconds: Int64(st.st_ctim.tv_nsec))))
    }

    private static func retrying<R: BinaryInteger>(_ call: () -> R) throws(Errno) -> R {
        while true {
            let r = call()
            if r >= 0 { return r }
            let e = Errno.current
            if e != .interrupted { throw e }
        }
    }

    private static func withCName<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) throws(Errno) -> R) throws(Errno) -> R {
        guard !name.contains(0) else { throw .invalidArgument }
        var c = name.map { CChar(bitPattern: $0) }
        c.append(0)
        var result: Result<R, Errno>!
        c.withUnsafeBufferPointer { p in
            do throws(Errno) { result = .success(try body(p.baseAddress!)) } catch { result = .failure(error) }
        }
        return try result.get()
    }
}
