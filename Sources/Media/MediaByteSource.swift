#if canImport(Glibc)
import Glibc
#endif

/// Bytes libavformat reads through a custom `AVIOContext`: a file, an array, or any stream the
/// caller adapts (a CAS blob, a socket). Sequential sources say `isSeekable == false`; the MP4
/// demuxer then needs `moov` before `mdat` (fast-start) and reads everything once.
public protocol MediaByteSource: AnyObject {
    /// Total length when known.
    var size: Int64? { get }
    var isSeekable: Bool { get }
    /// Fills `buffer` from the current position; 0 means end of input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int
    /// Moves the position (only called when `isSeekable`).
    func seek(to offset: Int64) throws(MediaError)
}

/// A regular file read with `pread` (the descriptor is closed in `deinit`).
public final class FileMediaSource: MediaByteSource {
    public let path: String
    public let size: Int64?
    public var isSeekable: Bool { true }
    private let fd: Int32
    private var position: Int64 = 0

    public init(path: String) throws(MediaError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(detail: "\(path): errno \(errno)") }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .cannotOpen(detail: "\(path): not a regular file")
        }
        self.fd = fd
        self.size = Int64(st.st_size)
    }

    deinit { close(fd) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = pread(fd, base, buffer.count, off_t(position))
            if n < 0 {
                if errno == EINTR { continue }
                throw .corrupt(detail: "\(path): read failed at \(position), errno \(errno)")
            }
            position += Int64(n)
            return n
        }
    }

    public func seek(to offset: Int64) throws(MediaError) {
        guard offset >= 0 else { throw .corrupt(detail: "seek to \(offset)") }
        position = offset
    }
}

/// Bytes held in memory (tests, small blobs). `sequential: true` hides seeking, to exercise
/// the sequential path.
public final class MemoryMediaSource: MediaByteSource {
    public let bytes: [UInt8]
    public let isSeekable: Bool
    private var position = 0

    public init(_ bytes: [UInt8], sequential: Bool = false) {
        self.bytes = bytes
        self.isSeekable = !sequential
    }

    public var size: Int64? { isSeekable ? Int64(bytes.count) : nil }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        let n = min(buffer.count, bytes.count - position)
        guard n > 0, let dst = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { src in
            if let base = src.baseAddress { dst.copyMemory(from: base + position, byteCount: n) }
        }
        position += n
        return n
    }

    public func seek(to offset: Int64) throws(MediaError) {
        guard offset >= 0, offset <= Int64(bytes.count) else { throw .corrupt(detail: "seek to \(offset)") }
        position = Int(offset)
    }
}
