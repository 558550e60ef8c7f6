import Ground

/// A random-access source over one stored blob, read straight from the store's chunks
/// (`ContentStore.read(_:range:into:)`): nothing is copied out to a file. `verified(_:in:)`
/// first streams the whole blob against its ID (as `export` does), so what is read after
/// is exactly what was stored. A chunk that is damaged or gone after that fails the read with
/// the store's own code (`ByteSourceError.storeFailed`: `cas.chunk.damaged`,
/// `cas.chunk.missing`) at its offset; anything else the store throws is `io.readFailed`
/// (`EIO`).
public struct StoredBlobSource: ChunkRangeSource {
    public let store: ContentStore
    public let id: ContentID
    public let count: Int64

    /// The blob `id`, its size from its record (`cas.notFound` when absent).
    public init(_ id: ContentID, in store: ContentStore) throws {
        self.store = store
        self.id = id
        self.count = try store.read(id, range: 0..<0) { _ in }
    }

    /// The blob `id`, after one streamed pass proving it hashes to `id` (`cas.chunk.damaged`,
    /// `cas.chunk.missing`, `cas.blob.mismatch` otherwise).
    public static func verified(_ id: ContentID, in store: ContentStore) throws -> StoredBlobSource {
        try store.read(id, verify: true) { _ in }
        return try StoredBlobSource(id, in: store)
    }

    func stream(_ range: Range<Int64>, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try store.read(id, range: range, into: sink)
    }
}

/// A source read by ranges from a store (`stream`), its failures named as the store names
/// them: the shared `read(at:…)` of `StoredBlobSource` and `StagedBlobSource`.
protocol ChunkRangeSource: ByteSource {
    /// Streams `range` (within `0..<count`) into `sink`, part by part.
    func stream(_ range: Range<Int64>, into sink: (UnsafeRawBufferPointer) throws -> Void) throws
}

extension ChunkRangeSource {
    public func read(at offset: Int64, count n: Int) throws(ByteSourceError) -> [UInt8] {
        let range = try clamp(offset, n)
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        do { try stream(range) { out.append(contentsOf: $0) } } catch {
            throw Self.readError(error, at: offset)
        }
        return out
    }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        let range = try clamp(offset, buffer.count)
        var filled = 0
        do {
            try stream(range) { part in
                UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + part.count)]).copyMemory(from: part)
                filled += part.count
            }
        } catch {
            throw Self.readError(error, at: offset)
        }
        return filled
    }

    /// `offset..<offset+n` cut at the end; an offset past the end is out of range.
    private func clamp(_ offset: Int64, _ n: Int) throws(ByteSourceError) -> Range<Int64> {
        guard offset >= 0, n >= 0, offset <= count else { throw .outOfRange(offset: offset, count: n) }
        return offset..<min(count, offset + Int64(n))
    }

    /// A store's failure during a ranged read as a source error: the CAS's named errors keep
    /// their code, anything else is `io.readFailed` (`EIO`).
    static func readError(_ error: any Error, at offset: Int64) -> ByteSourceError {
        if let cas = error as? CASError { return .storeFailed(offset: offset, code: cas.code, detail: cas.description) }
        return .readFailed(offset: offset, errno: Errno.ioError.rawValue)
    }
}
