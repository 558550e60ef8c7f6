import C2PA
import Crypto
import Ground

/// A byte source that computes the whole file's SHA-256 from the reads the validator makes
/// anyway, so a delivery file is read once for both its hard binding and its content digest.
///
/// The file is hashed strictly in order. A read that covers the next unhashed byte feeds the
/// hash and moves it on. A read further ahead either fills a small gap first (up to
/// `gapFill` = 64 KiB, read here: the header bytes a container walk skips) or, when the gap is
/// large, is kept as a pending piece (bounded by `pendingBudget`) and fed once the hash
/// reaches it. `finish()` reads whatever was never read (for a JPEG nothing; for an MP4 the
/// excluded `ftyp`/`uuid` boxes if a walk skipped them). Not thread-safe: one validation.
final class HashingByteSource: ByteSource, @unchecked Sendable {
    static let gapFill: Int64 = 64 << 10
    static let pendingBudget = 8 << 20

    private let base: FileByteSource
    private let digest = MessageDigest(.sha256)
    private var hashed: Int64 = 0
    private var pending: [(offset: Int64, bytes: [UInt8])] = []
    private var pendingBytes = 0
    /// Bytes read only to complete the whole-file hash (gap fills and `finish`).
    private(set) var extraBytesRead: Int64 = 0

    init(_ base: FileByteSource) { self.base = base }

    var count: Int64 { base.count }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        let n = try base.read(at: offset, into: buffer)
        observe(offset: offset, UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        return n
    }

    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        let b = try base.read(at: offset, count: count)
        b.withUnsafeBytes { observe(offset: offset, $0) }
        return b
    }

    /// Reads what was never read and returns the SHA-256 of the whole file.
    func finish() throws(ByteSourceError) -> [UInt8] {
        while hashed < base.count {
            let n = Int(min(Int64(1 << 20), base.count - hashed))
            let b = try base.read(at: hashed, count: n)
            guard !b.isEmpty else { throw .outOfRange(offset: hashed, count: n) }
            extraBytesRead += Int64(b.count)
            b.withUnsafeBytes { observe(offset: hashed, $0) }
        }
        return digest.finalize()
    }

    private func observe(offset: Int64, _ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let end = offset + Int64(bytes.count)
        if offset > hashed {
            if offset - hashed <= HashingByteSource.gapFill, let gap = try? base.read(at: hashed, count: Int(offset - hashed)),
               Int64(gap.count) == offset - hashed {
                extraBytesRead += Int64(gap.count)
                digest.update(gap)
                hashed = offset
            } else {
                if pendingBytes + bytes.count <= HashingByteSource.pendingBudget {
                    pending.append((offset, Array(bytes)))
                    pendingBytes += bytes.count
                }
                return
            }
        }
        if end > hashed {
            digest.update(UnsafeRawBufferPointer(rebasing: bytes[Int(hashed - offset)...]))
            hashed = end
        }
        drainPending()
    }

    private func drainPending() {
        guard !pending.isEmpty else { return }
        var progressed = true
        while progressed {
            progressed = false
            var keep: [(offset: Int64, bytes: [UInt8])] = []
            for p in pending {
                let end = p.offset + Int64(p.bytes.count)
                if end <= hashed { pendingBytes -= p.bytes.count; continue }
                if p.offset <= hashed {
                    p.bytes.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[Int(hashed - p.offset)...])) }
                    hashed = end
                    pendingBytes -= p.bytes.count
                    progressed = true
                } else {
                    keep.append(p)
                }
            }
            pending = keep
        }
    }
}
