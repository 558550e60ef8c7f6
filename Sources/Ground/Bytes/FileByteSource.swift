#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file read with `pread` through its open descriptor: the source a file is hashed
/// from and, when nothing better holds its bytes, read from again. Its `count` is the size
/// `fstat` gave when it was opened; `confirmUnchanged()` proves afterwards that the bytes read
/// were the whole file and that nobody changed it meanwhile (same device, inode, size, mtime
/// and ctime, and nothing past `count`: a file that grew, or a `/proc` file whose `st_size` is 0,
/// fails it).
public final class FileByteSource: ByteSource, @unchecked Sendable {
    public let descriptor: FileDescriptor
    public let count: Int64
    /// The path or name it was opened by (for messages).
    public let path: String
    /// `fstat` at open.
    public let status: FileStatus

    /// Opens a regular file by path (its last component never followed); any failure, a
    /// symlink or a non-regular file included, is `cannotOpen`.
    public convenience init(path: String) throws(ByteSourceError) {
        do { try self.init(opening: path, limit: FileLimits.current) } catch {
            switch error {
            case .cannotOpen(_, let e): throw .cannotOpen(path: path, errno: e.rawValue)
            case .symlink: throw .cannotOpen(path: path, errno: Errno.tooManySymbolicLinkLevels.rawValue)
            case .notRegularFile, .tooLarge: throw .cannotOpen(path: path, errno: Errno.invalidArgument.rawValue)
            }
        }
    }

    /// Opens a regular file of at most `limit` bytes by path (its last component never
    /// followed). Anything else is refused, with its own code, before a byte is read.
    public convenience init(opening path: String, limit: Int64) throws(FileOpenError) {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .read) } catch {
            throw error == .tooManySymbolicLinkLevels ? .symlink(path: path) : .cannotOpen(path: path, errno: error)
        }
        try self.init(opened: fd, path: path, limit: limit)
    }

    /// Opens the entry `name` of the directory `dir` (never through a symlink); `path` names
    /// it in messages.
    public convenience init(opening name: FileName, in dir: FileDescriptor, path: String, limit: Int64) throws(FileOpenError) {
        let fd: FileDescriptor
        do { fd = try dir.open(name, .read) } catch {
            throw error == .tooManySymbolicLinkLevels ? .symlink(path: path) : .cannotOpen(path: path, errno: error)
        }
        try self.init(opened: fd, path: path, limit: limit)
    }

    /// Takes an open descriptor: it must be a regular file within `limit`.
    public init(opened fd: FileDescriptor, path: String, limit: Int64 = FileLimits.defaultMaxFileBytes) throws(FileOpenError) {
        let st: FileStatus
        do { st = try fd.status() } catch { throw .cannotOpen(path: path, errno: error) }
        guard st.kind == .regular else { throw .notRegularFile(path: path, kind: st.kind) }
        guard st.size <= limit else { throw .tooLarge(path: path, size: st.size, limit: limit) }
        descriptor = fd
        count = st.size
        self.path = path
        status = st
    }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        guard offset >= 0 else { throw .outOfRange(offset: offset, count: buffer.count) }
        let want = Int(max(0, min(Int64(buffer.count), count - offset)))
        guard want > 0 else { return 0 }
        var done = 0
        while done < want {
            let n: Int
            do {
                n = try descriptor.read(at: offset + Int64(done),
                                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[done..<want]))
            } catch { throw .readFailed(offset: offset + Int64(done), errno: error.rawValue) }
            if n == 0 { break }
            done += n
        }
        return done
    }

    public func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, count >= 0 else { throw .outOfRange(offset: offset, count: count) }
        let want = Int(max(0, min(Int64(count), self.count - offset)))
        if want == 0 { return [] }
        var failure: ByteSourceError?
        var done = 0
        let out = [UInt8](unsafeUninitializedCapacity: want) { buf, n in
            do throws(ByteSourceError) { done = try read(at: offset, into: UnsafeMutableRawBufferPointer(buf)) } catch {
                failure = error
                done = 0
            }
            n = done
        }
        if let failure { throw failure }
        return out
    }

    /// Proves the file is as it was at open: nothing past `count` (one byte probed) and the
    /// same identity under `fstat`. Call after the last read that the result depends on.
    public func confirmUnchanged() throws(FileChange) {
        var probe: UInt8 = 0
        let extra: Int
        do { extra = try withUnsafeMutableBytes(of: &probe) { (b) throws(Errno) -> Int in try descriptor.read(at: count, into: b) } } catch {
            throw FileChange(path: path, before: status.identity, after: nil, reason: "read past the end failed: \(error)")
        }
        if extra > 0 {
            throw FileChange(path: path, before: status.identity, after: nil,
                             reason: "more bytes than the \(count) its size said (grew, or its size is not its content)")
        }
        let now: FileStatus
        do { now = try descriptor.status() } catch {
            throw FileChange(path: path, before: status.identity, after: nil, reason: "fstat failed: \(error)")
        }
        guard now.identity == status.identity else {
            throw FileChange(path: path, before: status.identity, after: now.identity, reason: "changed while it was read")
        }
    }
}

/// A file that did not stay the same while it was read. `code` is `io.sourceChanged`.
public struct FileChange: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var before: FileStatus.Identity
    public var after: FileStatus.Identity?
    public var reason: String

    public var code: String { StatusCode.ioSourceChanged }
    public var description: String {
        "\(code): \(path): \(reason)" + (after.map { " (was \(before); now \($0))" } ?? "")
    }
}

/// Why a file could not be opened for reading. `code` is stable.
public enum FileOpenError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, errno: Errno)
    /// The entry is a symlink (never followed).
    case symlink(path: String)
    /// A directory, device, FIFO or socket: only regular files are read.
    case notRegularFile(path: String, kind: FileStatus.Kind)
    /// Larger than the configured limit (`FileLimits`).
    case tooLarge(path: String, size: Int64, limit: Int64)

    public var code: String {
        switch self {
        case .cannotOpen: StatusCode.ioCannotOpen
        case .symlink: StatusCode.ioSymlink
        case .notRegularFile: StatusCode.ioNotRegularFile
        case .tooLarge: StatusCode.ioTooLarge
        }
    }

    public var path: String {
        switch self {
        case .cannotOpen(let p, _), .symlink(let p), .notRegularFile(let p, _), .tooLarge(let p, _, _): p
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let p, let e): "\(code): cannot open \(p): \(e)"
        case .symlink(let p): "\(code): \(p) is a symlink; not followed"
        case .notRegularFile(let p, let k): "\(code): \(p) is a \(k.rawValue), not a regular file"
        case .tooLarge(let p, let s, let l): "\(code): \(p) is \(s) bytes, over the limit of \(l) bytes"
        }
    }
}

/// The largest file the archive reads (`put`, `ingest`, `verify`): a file over it is a named
/// per-item error (`io.tooLarge`), never read.
public enum FileLimits {
    /// 1 TiB.
    public static let defaultMaxFileBytes: Int64 = 1 << 40
    /// The environment variable that sets it (bytes, or with a `K`/`M`/`G`/`T` suffix, powers of 1024).
    public static let environmentVariable = "EXHIBIT_MAX_FILE_SIZE"

    /// The limit in force: `EXHIBIT_MAX_FILE_SIZE` when it is set and parses, else the default
    /// (read once; `put`, `ingest` and `verify` check it with `isValid` and refuse a bad value).
    public static let current: Int64 = configured(environmentValue) ?? defaultMaxFileBytes

    /// The environment variable's value, nil when unset.
    public static var environmentValue: String? { getenv(environmentVariable).map { String(cString: $0) } }

    /// The limit `text` sets (nil for nil or a value that does not parse).
    public static func configured(_ text: String?) -> Int64? { text.flatMap(parse) }

    /// Parses `123`, `4K`, `16M`, `2G`, `1T` (binary multiples); nil for anything else or ≤ 0.
    public static func parse(_ text: String) -> Int64? {
        guard let last = text.last else { return nil }
        let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30, "T": 40, "k": 10, "m": 20, "g": 30, "t": 40]
        let (digits, shift) = shifts[last].map { (String(text.dropLast()), $0) } ?? (text, 0)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let n = Int64(digits), n > 0 else { return nil }
        let (v, overflow) = n.multipliedReportingOverflow(by: Int64(1) << shift)
        return overflow ? nil : v
    }
}
