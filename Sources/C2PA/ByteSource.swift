#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random-access bytes a container reader or a hasher works over: a file read with `pread`, or an
/// array in memory. Readers ask only for what they need, so memory stays constant in file size.
public protocol ByteSource: Sendable {
    /// Total length in bytes.
    var count: Int64 { get }
    /// Reads up to `count` bytes starting at `offset`; fewer only at the end of the source.
    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8]
    /// Fills `buffer` from `offset`; returns the bytes read (fewer only at the end).
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int
}

/// Why bytes could not be read. `code` is stable.
public enum ByteSourceError: Error, Equatable, Sendable {
    case cannotOpen(path: String, errno: Int32)
    case readFailed(offset: Int64, errno: Int32)
    case outOfRange(offset: Int64, count: Int)

    public var code: String {
        switch self {
        case .cannotOpen: "io.cannotOpen"
        case .readFailed: "io.readFailed"
        case .outOfRange: "io.outOfRange"
        }
    }
}

extension ByteSource {
    /// Reads exactly `count` bytes or throws `outOfRange`.
    public func readExactly(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= self.count, Int64(count) <= self.count - offset else {
            throw .outOfRange(offset: offset, count: count)
        }
        let b = try read(at: offset, count: count)
        guard b.count == count else { throw .outOfRange(offset: offset, count: count) }
        return b
    }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        let b = try read(at: offset, count: buffer.count)
        b.withUnsafeBytes { buffer.copyMemory(from: $0) }
        return b.count
    }

    /// Calls `body` with consecutive chunks of `range` read into one reused buffer (no
    /// allocation per chunk): the hashing loop.
    public func forEachChunkInPlace(in range: Range<Int64>, chunkSize: Int = 1 << 20,
                                    _ body: (UnsafeRawBufferPointer) -> Void) throws(ByteSourceError) {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw .outOfRange(offset: range.lowerBound, count: Int(clamping: range.count))
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var at = range.lowerBound
        while at < range.upperBound {
            let n = Int(min(Int64(chunkSize), range.upperBound - at))
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n])
            let got = try read(at: at, into: slice)
            guard got == n else { throw .outOfRange(offset: at, count: n) }
            body(UnsafeRawBufferPointer(slice))
            at += Int64(n)
        }
    }

    /// Calls `body` with consecutive chunks (at most `chunkSize` bytes) of `range`.
    public func forEachChunk(in range: Range<Int64>, chunkSize: Int = 1 << 20,
                             _ body: ([UInt8]) -> Void) throws(ByteSourceError) {
        var at = range.lowerBound
        while at < range.upperBound {
            let n = Int(min(Int64(chunkSize), range.upperBound - at))
            body(try readExactly(at: at, count: n))
            at += Int64(n)
        }
    }
}

/// Bytes held in memory.
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var count: Int64 { Int64(bytes.count) }
    public func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= Int64(bytes.count), count >= 0 else { throw .outOfRange(offset: offset, count: count) }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + count)])
    }
}

/// A regular file read with `pread`; the descriptor is closed when the last reference goes.
public final class FileByteSource: ByteSource, @unchecked Sendable {
    private let fd: Int32
    public let count: Int64
    public let path: String

    public init(path: String) throws(ByteSourceError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw .cannotOpen(path: path, errno: e)
        }
        self.fd = fd
        self.count = Int64(st.st_size)
        self.path = path
    }

    deinit { close(fd) }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        guard offset >= 0 else { throw .outOfRange(offset: offset, count: buffer.count) }
        let want = Int(max(0, min(Int64(buffer.count), self.count - offset)))
        guard want > 0, let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < want {
            let n = pread(fd, base + done, want - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw .readFailed(offset: offset, errno: errno)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    public func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, count >= 0 else { throw .outOfRange(offset: offset, count: count) }
        let want = Int(max(0, min(Int64(count), self.count - offset)))
        if want == 0 { return [] }
        var out = [UInt8](repeating: 0, count: want)
        var failure: ByteSourceError?
        var done = 0
        out.withUnsafeMutableBytes { buf in
            do throws(ByteSourceError) { done = try read(at: offset, into: buf) } catch { failure = error }
        }
        if let failure { throw failure }
        return done == want ? out : Array(out.prefix(done))
    }
}
