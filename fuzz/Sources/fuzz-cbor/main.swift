import C2PA
import FuzzSupport

// CBOR (RFC 8949) as C2PA carries it: whole-item decode (trailing bytes rejected, depth capped)
// and prefix decode, whose consumed length must lie inside the input.
fuzzMain { bytes in
    _ = try? CBOR(decoding: bytes)
    if let (_, used) = try? CBOR.decodePrefix(bytes) {
        precondition(used > 0 && used <= bytes.count, "decodePrefix consumed \(used) of \(bytes.count)")
    }
}
