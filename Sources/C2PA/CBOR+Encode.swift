extension CBOR {
    /// The item's encoding: definite lengths, shortest arguments, map pairs in stored order,
    /// floats as the shortest of half/single/double that round-trips exactly.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    public func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let v): CBOR.writeHead(0, v, &out)
        case .negative(let v): CBOR.writeHead(1, v, &out)
        case .bytes(let b):
            CBOR.writeHead(2, UInt64(b.count), &out)
            out.append(contentsOf: b)
        case .text(let s):
            let u = Array(s.utf8)
            CBOR.writeHead(3, UInt64(u.count), &out)
            out.append(contentsOf: u)
        case .array(let a):
            CBOR.writeHead(4, UInt64(a.count), &out)
            for item in a { item.encode(into: &out) }
        case .map(let m):
            CBOR.writeHead(5, UInt64(m.count), &out)
            for pair in m {
                pair.key.encode(into: &out)
                pair.value.encode(into: &out)
            }
        case .tagged(let t, let item):
            CBOR.writeHead(6, t, &out)
            item.encode(into: &out)
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .undefined: out.append(0xf7)
        case .simple(let v):
            if v < 24 { out.append(0xe0 | v) } else { out.append(0xf8); out.append(v) }
        case .double(let d):
            let f = Float(d)
            if Double(f) == d || d.isNaN {
                out.append(0xfa)
                CBOR.appendBigEndian(UInt64(f.bitPattern), width: 4, &out)
            } else {
                out.append(0xfb)
                CBOR.appendBigEndian(d.bitPattern, width: 8, &out)
            }
        }
    }

    static func writeHead(_ major: UInt8, _ v: UInt64, _ out: inout [UInt8]) {
        let m = major << 5
        switch v {
        case 0..<24: out.append(m | UInt8(v))
        case 24..<0x100: out.append(m | 24); out.append(UInt8(v))
        case 0x100..<0x10000: out.append(m | 25); appendBigEndian(v, width: 2, &out)
        case 0x10000..<0x1_0000_0000: out.append(m | 26); appendBigEndian(v, width: 4, &out)
        default: out.append(m | 27); appendBigEndian(v, width: 8, &out)
        }
    }

    static func appendBigEndian(_ v: UInt64, width: Int, _ out: inout [UInt8]) {
        for i in stride(from: width - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }
}
