import Crypto
import Ground

/// Streams a hash over a source minus exclusion ranges, optionally inserting BMFF v2/v3 offset
/// markers (the 8-byte big-endian file offset of a top-level box, hashed just before the box's
/// first included byte), as c2pa-rs `hash_stream_by_alg` does.
enum RangeHasher {
    enum Piece { case data(Range<UInt64>), marker(UInt64) }
    static let bufferSize = 1 << 20

    static func hash(_ source: some ByteSource, excluding exclusions: [(UInt64, UInt64)], markers: [UInt64],
                     algorithm: DigestAlgorithm) throws(HashAssertionError) -> [UInt8] {
        let n = UInt64(source.count)
        // Included ranges = [0, n) minus exclusions.
        var ex = exclusions.filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
        for e in ex {
            let (end, o) = e.0.addingReportingOverflow(e.1)
            guard !o, end <= n else { throw .exclusionOutOfRange }
        }
        var included: [Range<UInt64>] = []
        var at: UInt64 = 0
        for e in ex {
            if e.0 > at { included.append(at..<e.0) }
            at = max(at, e.0 + e.1)
        }
        if at < n { included.append(at..<n) }
        ex.removeAll()
        // Split the included ranges at markers; markers outside any range but between the first
        // and last included byte are hashed in order on their own (c2pa-rs does the same).
        var pieces: [Piece] = []
        let sortedMarkers = markers.sorted()
        var mi = 0
        let first = included.first?.lowerBound ?? 0
        let last = included.last.map { $0.upperBound - 1 } ?? 0
        for r in included {
            var cur = r
            while mi < sortedMarkers.count && sortedMarkers[mi] < cur.upperBound {
                let m = sortedMarkers[mi]
                if m >= cur.lowerBound {
                    if m > cur.lowerBound { pieces.append(.data(cur.lowerBound..<m)) }
                    pieces.append(.marker(m))
                    cur = m..<cur.upperBound
                } else if m > first && m < last {
                    pieces.append(.marker(m))
                }
                mi += 1
            }
            if !cur.isEmpty { pieces.append(.data(cur)) }
        }
        let h = MessageDigest(algorithm)
        for p in pieces {
            switch p {
            case .marker(let m): h.update(BigEndian.bytes(m))
            case .data(let r):
                do {
                    try source.forEachChunkInPlace(in: Int64(r.lowerBound)..<Int64(r.upperBound), chunkSize: bufferSize) { h.update($0) }
                } catch { throw .io(error) }
            }
        }
        return h.finalize()
    }
}
