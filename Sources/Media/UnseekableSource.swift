import Ground

/// A source libavformat may only read forwards (its `AVIOContext` says not seekable, as for a
/// pipe or a socket): the MP4 demuxer then needs `moov` before `mdat` and reads everything
/// once. Every archive source is random access; this wrapper exists so the sequential path of
/// the demuxers stays exercised.
public struct UnseekableSource: ByteSource {
    public let base: any ByteSource
    public init(_ base: any ByteSource) { self.base = base }
    public var count: Int64 { base.count }
    public func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] { try base.read(at: offset, count: count) }
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        try base.read(at: offset, into: buffer)
    }
}

extension FileByteSource {
    /// Opens a regular file for a media measurement (never through a symlink).
    static func media(_ path: String) throws(MediaError) -> FileByteSource {
        do { return try FileByteSource(path: path) } catch { throw .cannotOpen(detail: "\(path): \(error)") }
    }
}
