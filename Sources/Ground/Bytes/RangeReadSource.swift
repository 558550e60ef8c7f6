/// A `ByteSource` whose bytes come by range from a store that streams a range in pieces (a
/// stored blob's chunks, an object store's ranged GET): the store implements `readRange`, this
/// extension the two reads — cut at the end, refused past it, any store failure an
/// `io.readFailed` (`EIO`) at the offset asked for.
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
            throw .readFailed(offset: offset, errno: Errno.ioError.rawValue)
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
            throw .readFailed(offset: offset, errno: Errno.ioError.rawValue)
        }
        return filled
    }

    /// `offset..<offset+n` cut at the end; an offset past the end is out of range.
    func clampedRange(_ offset: Int64, _ n: Int) throws(ByteSourceError) -> Range<Int64> {
        guard offset >= 0, n >= 0, offset <= count else { throw .outOfRange(offset: offset, count: n) }
        return offset..<min(count, offset + Int64(n))
    }
}
