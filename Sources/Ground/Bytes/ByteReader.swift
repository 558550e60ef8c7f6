/// A sequential position over any `ByteSource`: `read(into:)` fills a buffer from the position
/// and moves it on (0 at the end), as a stream put needs. The source itself never moves, so
/// several readers may share one.
public struct ByteReader: Sendable {
    public let source: any ByteSource
    /// Offset of the next byte to read.
    public private(set) var position: Int64

    public init(_ source: any ByteSource, from position: Int64 = 0) {
        self.source = source
        self.position = position
    }

    /// Fills as much of `buffer` as the source has from the position; returns the byte count
    /// (0 at the end) and moves the position past it.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        guard position < source.count, buffer.count > 0 else { return 0 }
        let want = Int(min(Int64(buffer.count), source.count - position))
        var filled = 0
        while filled < want {
            let n = try source.read(at: position + Int64(filled),
                                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<want]))
            if n == 0 { break }
            filled += n
        }
        position += Int64(filled)
        return filled
    }

    /// Bytes left after the position.
    public var remaining: Int64 { max(0, source.count - position) }
}
