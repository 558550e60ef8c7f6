import FuzzSupport
import Inflate

// zlib and raw deflate streams through the one module that imports zlib, with a small output
// bound (the first input byte picks the wrapper): corrupt, cut and oversized streams must be
// typed failures, and no output may pass the bound.
fuzzMain { bytes in
    guard let first = bytes.first else { return }
    let limit = 1 << 16
    if let out = try? Inflate.inflate(Array(bytes.dropFirst()), wrapper: first & 1 == 0 ? .zlib : .raw, limit: limit) {
        precondition(out.count <= limit)
    }
}
