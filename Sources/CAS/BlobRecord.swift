import Ground

/// The metadata of one blob, the value of `cas.blobs[blobID]`.
///
/// Encoding (big-endian): `version u8 = 1 | chunkSize u32 | size u64 | count u32 | count × chunkID[32]`.
/// Decoding checks every length: `count` must equal `ceil(size / chunkSize)` and the record must
/// end exactly after the last ID.
public struct BlobRecord: Equatable, Sendable {
    public static let version: UInt8 = 1
    static let headerSize = 1 + 4 + 8 + 4

    public let size: UInt64
    public let chunkSize: Int
    public let chunks: [ContentID]

    public init(size: UInt64, chunkSize: Int, chunks: [ContentID]) {
        self.size = size
        self.chunkSize = chunkSize
        self.chunks = chunks
    }

    /// Expected length of chunk `index`.
    public func length(ofChunk index: Int) -> Int {
        index < chunks.count - 1 ? chunkSize : Int(size - UInt64(chunkSize) * UInt64(chunks.count - 1))
    }

    public func encoded() -> [UInt8] {
        var out: [UInt8] = [Self.version]
        out.reserveCapacity(Self.headerSize + chunks.count * ContentID.byteCount)
        appendBigEndian(UInt64(chunkSize), bytes: 4, to: &out)
        appendBigEndian(size, bytes: 8, to: &out)
        appendBigEndian(UInt64(chunks.count), bytes: 4, to: &out)
        for c in chunks { out += c.bytes }
        return out
    }

    /// Reads only the size from an encoded record (for stats), nil when malformed.
    static func size(of raw: UnsafeRawBufferPointer) -> UInt64? {
        guard raw.count >= headerSize, raw[0] == version else { return nil }
        return readBigEndian(raw, at: 5, bytes: 8)
    }

    public init(decoding raw: UnsafeRawBufferPointer) throws(RecordError) {
        guard raw.count >= Self.headerSize else { throw .truncated }
        guard raw[0] == Self.version else { throw .unknownVersion(raw[0]) }
        let chunkSize = Int(Self.readBigEndian(raw, at: 1, bytes: 4))
        let size = Self.readBigEndian(raw, at: 5, bytes: 8)
        let count = Int(Self.readBigEndian(raw, at: 13, bytes: 4))
        guard chunkSize > 0 else { throw .badChunkSize }
        let expected = (size + UInt64(chunkSize) - 1) / UInt64(chunkSize)
        guard UInt64(count) == expected else { throw .countMismatch }
        guard raw.count == Self.headerSize + count * ContentID.byteCount else { throw .lengthMismatch }
        var ids: [ContentID] = []
        ids.reserveCapacity(count)
        for i in 0..<count {
            let start = Self.headerSize + i * ContentID.byteCount
            guard let id = ContentID(UnsafeRawBufferPointer(rebasing: raw[start..<start + ContentID.byteCount])) else {
                throw .lengthMismatch
            }
            ids.append(id)
        }
        self.init(size: size, chunkSize: chunkSize, chunks: ids)
    }

    /// Why a record did not decode.
    public enum RecordError: Error, Equatable, Sendable {
        case truncated, unknownVersion(UInt8), badChunkSize, countMismatch, lengthMismatch

        public var code: String {
            switch self {
            case .truncated: StatusCode.recordTruncated
            case .unknownVersion: StatusCode.recordUnknownVersion
            case .badChunkSize: StatusCode.recordBadChunkSize
            case .countMismatch: StatusCode.recordCountMismatch
            case .lengthMismatch: StatusCode.recordLengthMismatch
            }
        }
    }

    private func appendBigEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for shift in stride(from: (bytes - 1) * 8, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func readBigEndian(_ raw: UnsafeRawBufferPointer, at offset: Int, bytes: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<bytes { v = v << 8 | UInt64(raw[offset + i]) }
        return v
    }
}
