#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few syscalls the layout checks need, in one place. Nothing here follows a symlink.
enum FileSystem {
    enum Kind: Equatable, Sendable {
        case regular(size: Int64)
        case directory
        case symlink(target: String)
        case other
        case absent
    }

    /// `lstat` of `path`: what is there, without following a final symlink.
    static func kind(_ path: String) -> Kind {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .absent }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int64(st.st_size))
        case S_IFDIR: return .directory
        case S_IFLNK: return .symlink(target: readLink(path) ?? "")
        default: return .other
        }
    }

    static func readLink(_ path: String) -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buf, buf.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Entry names of a directory (no `.`/`..`), sorted bytewise; nil when it cannot be opened.
    static func list(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted(by: utf8Precedes)
    }

    static var currentDirectory: String {
        var buf = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buf, buf.count) != nil else { return "/" }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Streams a regular file's SHA-256, refusing symlinks (O_NOFOLLOW) and non-regular files.
    static func sha256(_ path: String) throws(EvidenceReadError) -> ContentDigest {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ELOOP ? .symlink(path) : (errno == ENOENT ? .absent(path) : .unreadable(path, errno: errno))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path) }
        let hasher = StreamingSHA256()
        var buf = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path, errno: errno)
            }
            if n == 0 { break }
            buf.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
        }
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
        case .absent: "evidence.absent"
        case .symlink: "evidence.symlink"
        case .notRegularFile: "evidence.notRegularFile"
        case .unreadable: "evidence.unreadable"
        }
    }
}
