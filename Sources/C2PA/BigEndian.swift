/// Big-endian integer helpers over byte collections (bounds checked by callers).
enum BigEndian {
    static func u16(_ b: some Collection<UInt8>, _ at: Int) -> UInt16? {
        guard at >= 0, let s = slice(b, at, 2) else { return nil }
        return UInt16(s[0]) << 8 | UInt16(s[1])
    }

    static func u32(_ b: some Collection<UInt8>, _ at: Int) -> UInt32? {
        guard let s = slice(b, at, 4) else { return nil }
        return s.reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func u64(_ b: some Collection<UInt8>, _ at: Int) -> UInt64? {
        guard let s = slice(b, at, 8) else { return nil }
        return s.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `n` bytes at offset `at` (relative to the collection's start), or nil when short.
    static func slice(_ b: some Collection<UInt8>, _ at: Int, _ n: Int) -> [UInt8]? {
        guard at >= 0, n >= 0, at <= b.count, n <= b.count - at else { return nil }
        let start = b.index(b.startIndex, offsetBy: at)
        return Array(b[start..<b.index(start, offsetBy: n)])
    }

    static func bytes(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }
    static func bytes(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    static func bytes(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }

    static func fourCC(_ b: [UInt8]) -> String {
        String(decoding: b.map { (0x20...0x7e).contains($0) ? $0 : 0x3f }, as: UTF8.self)
    }
}
