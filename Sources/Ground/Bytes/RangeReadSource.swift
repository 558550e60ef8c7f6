/// A `ByteSource` whose bytes come by range from a store that streams a range in pieces (a
/// stored blob's chunks, an object store's ranged GET): the store implements `readRange`, this
/// extension the two reads — cut at the end, refused past it. A store failure with a named code
/// (`NamedError`: `cas.chunk.damaged`, `cas.chunk.missing`, `s3.integrity.mismatch`, …) keeps
/// that code (`ByteSourceError.storeFailed`) at the offset asked for; any other failure is
/// `io.readFailed` (`EIO`) there.
public protocol RangeReadSource: ByteSource {
    /// Streams bytes `range` (within `0..<count`) into `sink`, in order.
    func readRange(_ range: Range<Int64>, into sink: (UnsafeRawBufferPointer) throws -> Void) throws
}

extension RangeReadSource {
    public func read(at offset: Int64, count n: Int) throws(ByteSourceError) -> [UInt8] {
        let range = try clampedRange(offset, n)
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        do { try readRange(range) { out.append(contentsOf: $0) } } catch {
            throw rangeReadError(error, at: offset)
        }
        return out
    }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        let range = try clampedRange(offset, buffer.count)
        var filled = 0
        do {
            try readRange(range) { part in
                let n = min(part.count, buffer.count - filled)
                UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + n)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: part[0..<n]))
                filled += n
            }
        } catch {
            throw rangeReadError(error, at: offset)
        }
        return filled
    }

    /// A store's failure during a ranged read as a source error: a named code is kept, anything
    /// else is `io.readFailed` (`EIO`).
    func rangeReadError(_ error: any Error, at offset: Int64) -> ByteSourceError {
        if let named = error as? any NamedError {
            return .storeFailed(offset: offset, code: named.statusCode, detail: "\(error)")
        }
        return .readFailed(offset: offset, errno: Errno.ioError.rawValue)
    }

    /// `offset..<offset+n` cut at the end; an offset past the end is out of range.
    func clampedRange(_ offset: Int64, _ n: Int) throws(ByteSourceError) -> Range<Int64> {
        guard offset >= 0, n >= 0, offset <= count else { throw .outOfRange(offset: offset, count: n) }
        return offset..<min(count, offset + Int64(n))
    }
}
