import Foundation

/// A stream of bytes a blob is put from, read in chunks so memory stays constant.
public protocol ByteSource {
    /// Fills as much of `buffer` as the source can; returns the byte count, 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Reads a file descriptor with `read(2)` until the buffer is full or the file ends.
public struct FileDescriptorSource: ByteSource {
    public let fd: Int32
    public let path: String

    public init(fd: Int32, path: String = "<fd>") {
        self.fd = fd
        self.path = path
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = Foundation.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if n < 0 {
                if errno == EINTR { continue }
                throw CASError.input(path: path, errno: errno)
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }
}

extension FileHandle {
    /// This handle as a `ByteSource` (reads from the current offset).
    public var byteSource: FileDescriptorSource { FileDescriptorSource(fd: fileDescriptor) }
}

/// Bytes already in memory.
public struct BytesSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}

/// Any sequence of byte chunks (each chunk may have any length).
public struct ChunkSequenceSource<Chunks: IteratorProtocol>: ByteSource where Chunks.Element == [UInt8] {
    private var chunks: Chunks
    private var pending: [UInt8] = []
    private var offset = 0

    public init(_ chunks: Chunks) { self.chunks = chunks }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            if offset == pending.count {
                guard let next = chunks.next() else { break }
                pending = next
                offset = 0
                continue
            }
            let n = min(buffer.count - filled, pending.count - offset)
            pending.withUnsafeBytes { src in
                (buffer.baseAddress! + filled).copyMemory(from: src.baseAddress! + offset, byteCount: n)
            }
            offset += n
            filled += n
        }
        return filled
    }
}
