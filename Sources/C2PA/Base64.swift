/// Standard base64 (RFC 4648 §4) with padding, strict as c2pa-rs's decoder (the `base64` crate's
/// STANDARD engine): the length is a multiple of 4, `=` only as the final padding, no white
/// space, and the unused bits of the last symbol are zero.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let values: [Int8] = {
        var v = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { v[Int(c)] = Int8(i) }
        return v
    }()

    static func encode(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((b.count + 2) / 3 * 4)
        var i = 0
        while i < b.count {
            let n = min(3, b.count - i)
            let v = (UInt32(b[i]) << 16) | (n > 1 ? UInt32(b[i + 1]) << 8 : 0) | (n > 2 ? UInt32(b[i + 2]) : 0)
            for k in 0..<4 { out.append(k <= n ? alphabet[Int((v >> (18 - 6 * k)) & 0x3F)] : UInt8(ascii: "=")) }
            i += 3
        }
        return out
    }

    static func encodedLength(_ n: Int) -> Int { (n + 2) / 3 * 4 }

    static func decode(_ s: some Collection<UInt8>) -> [UInt8]? {
        let s = Array(s)
        guard s.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(s.count / 4 * 3)
        var i = 0
        while i < s.count {
            let last = i + 4 == s.count
            let pad = last ? (s[i + 3] == UInt8(ascii: "=") ? (s[i + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
            var v: UInt32 = 0
            for k in 0..<4 {
                if k >= 4 - pad { v <<= 6; continue }
                let d = values[Int(s[i + k])]
                guard d >= 0 else { return nil }
                v = v << 6 | UInt32(d)
            }
            if pad == 2 && v & 0xFFFF != 0 { return nil }
            if pad == 1 && v & 0xFF != 0 { return nil }
            out.append(UInt8(v >> 16))
            if pad < 2 { out.append(UInt8((v >> 8) & 0xFF)) }
            if pad < 1 { out.append(UInt8(v & 0xFF)) }
            i += 4
        }
        return out
    }
}
