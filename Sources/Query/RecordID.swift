/// A record's identity as the index keys it: the 32 bytes of the SHA-256 behind
/// `IndexedRecord.recordId`. Ordered like its bytes (so like its lowercase hex), which is the
/// order of the index keys that end in it; four big-endian words compare fast when sets of a
/// million IDs are sorted and intersected.
public struct RecordID: Hashable, Comparable, Sendable, CustomStringConvertible {
    let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// Parses 64 lowercase hex digits; nil otherwise.
    public init?(hex: String) {
        let u = Array(hex.utf8)
        guard u.count == 64 else { return nil }
        var words = [UInt64](repeating: 0, count: 4)
        for (i, c) in u.enumerated() {
            guard let n = RecordID.nibble(c) else { return nil }
            words[i / 16] = words[i / 16] << 4 | UInt64(n)
        }
        (w0, w1, w2, w3) = (words[0], words[1], words[2], words[3])
    }

    /// Reads the 32 bytes at the end of an index key (or a whole records-table key).
    init?(suffixOf key: UnsafeRawBufferPointer) {
        guard key.count >= 32 else { return nil }
        let base = key.count - 32
        func word(_ i: Int) -> UInt64 {
            UInt64(bigEndian: key.loadUnaligned(fromByteOffset: base + i * 8, as: UInt64.self))
        }
        (w0, w1, w2, w3) = (word(0), word(1), word(2), word(3))
    }

    /// The 32 key bytes.
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(32)
        for w in [w0, w1, w2, w3] {
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: w >> UInt64(shift))) }
        }
        return out
    }

    /// 64 lowercase hex digits (written straight from the words: no intermediate arrays).
    public var hex: String {
        String(unsafeUninitializedCapacity: 64) { out in
            func put(_ w: UInt64, at base: Int) {
                for j in 0..<16 {
                    let n = UInt8(truncatingIfNeeded: w >> UInt64(60 - 4 * j)) & 0x0f
                    out[base + j] = n < 10 ? 0x30 + n : 0x57 + n
                }
            }
            put(w0, at: 0)
            put(w1, at: 16)
            put(w2, at: 32)
            put(w3, at: 48)
            return 64
        }
    }

    public var description: String { hex }

    public static func < (a: RecordID, b: RecordID) -> Bool {
        (a.w0, a.w1, a.w2, a.w3) < (b.w0, b.w1, b.w2, b.w3)
    }

    /// The value of one lowercase hex digit.
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}
