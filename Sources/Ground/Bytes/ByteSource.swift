/// Random-access bytes: the one way every layer reads content — a container reader, a hasher,
/// the capture verifier, libav (through an `AVIOContext`), the CAS. Reads never move anything
/// (`read(at:…)` takes the offset, as swift-nio's `get*(at:)`), so one source can be shared by
/// several readers; `ByteReader` adds a sequential position over any source. Implementations:
/// `MemoryByteSource` (bytes in memory), `FileByteSource` (a descriptor read with `pread`), and
/// the CAS's sources over stored chunks. Readers ask only for what they need, so memory stays
/// constant in the size of the content.
public protocol ByteSource: Sendable {
    /// Total length in bytes.
    var count: Int64 { get }
    /// Reads up to `count` bytes starting at `offset`; fewer only at the end of the source.
    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8]
    /// Fills `buffer` from `offset`; returns the bytes read (fewer only at the end).
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int
}

/// Why bytes could not be read. `code` is stable.
public enum ByteSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, errno: Int32)
    case readFailed(offset: Int64, errno: Int32)
    case outOfRange(offset: Int64, count: Int)
    /// A store behind the source (the CAS's chunks) refused the read with its own named
    /// error: `code` is the store's (`cas.chunk.damaged`, `cas.chunk.missing`, …), so a chunk
    /// that goes bad between the whole-blob check and a ranged read is named as the store
    /// names it, not as a file-system `io.readFailed`. `detail` is the store's message.
    case storeFailed(offset: Int64, code: String, detail: String)

    public var code: String {
        switch self {
        case .cannotOpen: StatusCode.ioCannotOpen
        case .readFailed: StatusCode.ioReadFailed
        case .outOfRange: StatusCode.ioOutOfRange
        case .storeFailed(_, let code, _): code
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let p, let e): "\(code): cannot open \(p): \(Errno(rawValue: e))"
        case .readFailed(let o, let e): "\(code): read failed at \(o): \(Errno(rawValue: e))"
        case .outOfRange(let o, let n): "\(code): \(n) bytes at \(o) are past the end"
        case .storeFailed(let o, _, let d): d.hasPrefix(code) ? "\(d) (reading at \(o))" : "\(code): \(d) (reading at \(o))"
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

    /// Every byte (for small sources: bundles, listings; stream large ones).
    public func readAll() throws(ByteSourceError) -> [UInt8] {
        guard count <= Int64(Int.max) else { throw .outOfRange(offset: 0, count: Int.max) }
        return try readExactly(at: 0, count: Int(count))
    }
}

extension ByteSourceError {
    /// The `errno` behind a failed open or read (0 for `outOfRange`; `EIO` for a store's
    /// refusal).
    public var errno: Int32 {
        switch self {
        case .cannotOpen(_, let e), .readFailed(_, let e): e
        case .outOfRange: 0
        case .storeFailed: Errno.ioError.rawValue
        }
    }
}
