import C2PA

/// Deterministic CBOR (RFC 8949 §4.2.1 core deterministic encoding) of a `CBOR` item:
/// definite lengths, shortest integer arguments, map keys sorted by the bytewise order of their
/// own encodings, floats in the shortest of half/single/double that keeps the value exactly
/// (NaN as `f9 7e00`). Used for everything the format hashes or byte-compares: the capture
/// record, canonical claims and the inventory.
public enum DeterministicCBOR {
    public static func encode(_ item: CBOR) -> [UInt8] {
        var out: [UInt8] = []
        write(item, &out)
        return out
    }

    private static func write(_ item: CBOR, _ out: inout [UInt8]) {
        switch item {
        case .array(let a):
            head(4, UInt64(a.count), &out)
            for x in a { write(x, &out) }
        case .map(let pairs):
            let encoded = pairs.map { (encode($0.key), encode($0.value)) }
                .sorted { $0.0.lexicographicallyPrecedes($1.0) }
            head(5, UInt64(encoded.count), &out)
            for (k, v) in encoded { out += k; out += v }
        case .tagged(let t, let inner):
            head(6, t, &out)
            write(inner, &out)
        case .double(let d):
            writeFloat(d, &out)
        default:
            item.encode(into: &out)
        }
    }

    private static func head(_ major: UInt8, _ v: UInt64, _ out: inout [UInt8]) {
        // Reuse the codec's shortest-form head by encoding an unsigned and patching the major type.
        var tmp: [UInt8] = []
        CBOR.unsigned(v).encode(into: &tmp)
        tmp[0] = (tmp[0] & 0x1f) | (major << 5)
        out += tmp
    }

    private static func writeFloat(_ d: Double, _ out: inout [UInt8]) {
        if d.isNaN { out += [0xf9, 0x7e, 0x00]; return }
        let h = Float16(d)
        if Double(h) == d {
            let bits = h.bitPattern
            out += [0xf9, UInt8(bits >> 8), UInt8(bits & 0xff)]
            return
        }
        let f = Float(d)
        if Double(f) == d {
            let bits = f.bitPattern
            out += [0xfa, UInt8(bits >> 24), UInt8((bits >> 16) & 0xff), UInt8((bits >> 8) & 0xff), UInt8(bits & 0xff)]
            return
        }
        let bits = d.bitPattern
        out.append(0xfb)
        for i in stride(from: 56, through: 0, by: -8) { out.append(UInt8((bits >> UInt64(i)) & 0xff)) }
    }
}
