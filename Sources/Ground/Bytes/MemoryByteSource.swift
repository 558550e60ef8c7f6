/// Bytes held in memory: a small file read once (staged inline at ingest), a test's bytes.
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    /// The SHA-256 of `bytes`, when whoever made this source proved it (a blob read back from
    /// the store and re-hashed against its ID): readers that key work by content
    /// (`StillPictureMemo`) use it instead of hashing the bytes again. Nil: not known.
    public let contentID: ContentID?

    public init(_ bytes: [UInt8], contentID: ContentID? = nil) {
        self.bytes = bytes
        self.contentID = contentID
    }
    public var count: Int64 { Int64(bytes.count) }

    public func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= Int64(bytes.count), count >= 0 else { throw .outOfRange(offset: offset, count: count) }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + count)])
    }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        guard offset >= 0, offset <= Int64(bytes.count) else { throw .outOfRange(offset: offset, count: buffer.count) }
        let start = Int(offset)
        let n = min(buffer.count, bytes.count - start)
        guard n > 0, let dst = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { src in dst.copyMemory(from: src.baseAddress! + start, byteCount: n) }
        return n
    }
}
