import Crypto
import Ground

extension BMFFHashAssertion {
    /// The flat exclusion ranges and (v2+) offset markers for a file, per c2pa-rs
    /// `bmff_to_jumbf_exclusions`: every box on an exclusion's xpath that passes its length,
    /// version, flags and data predicates is excluded whole, or only its subsets; a top-level box
    /// excluded whole gets no offset marker; every other top-level box does.
    public func exclusionRanges(source: some ByteSource, boxes: [BMFFBox]) throws(HashAssertionError)
        -> (ranges: [(UInt64, UInt64)], markers: [UInt64]) {
        var topLevel = boxes.map { UInt64($0.range.lowerBound) }
        var ranges: [(UInt64, UInt64)] = []
        for e in exclusions {
            for b in BMFFBox.boxes(at: e.xpath, in: boxes) {
                let start = UInt64(b.range.lowerBound)
                let length = UInt64(b.range.count)
                if let l = e.length, l != length { continue }
                if let v = e.version, let bv = b.version, v != bv { continue }
                if let f = e.flags, let bf = b.flags {
                    let want: UInt32 = f.count >= 3 ? UInt32(f[0]) << 16 | UInt32(f[1]) << 8 | UInt32(f[2]) : 0
                    if e.exact ?? true { if want != bf { continue } } else if want | bf != want { continue }
                }
                if let data = e.data {
                    var ok = true
                    for m in data {
                        let (at, o) = start.addingReportingOverflow(m.offset)
                        guard !o, at <= UInt64(Int64.max) else { ok = false; break }
                        let got = (try? source.read(at: Int64(at), count: m.value.count)) ?? []
                        if got != m.value { ok = false; break }
                    }
                    if !ok { continue }
                }
                if let subset = e.subset {
                    for s in subset where s.offset <= length {
                        let n = s.length == 0 ? length - s.offset : min(s.length, length - s.offset)
                        ranges.append((start + s.offset, n))
                    }
                } else {
                    ranges.append((start, length))
                    if let i = topLevel.firstIndex(of: start) { topLevel.remove(at: i) }
                }
            }
        }
        return (ranges, version > 1 ? topLevel : [])
    }

    /// Recomputes the hash over `source` (one streamed pass, 1 MiB reads).
    public func computeHash(over source: some ByteSource, boxes: [BMFFBox]? = nil,
                            algorithm: DigestAlgorithm) throws(HashAssertionError) -> [UInt8] {
        let tree: [BMFFBox]
        if let boxes { tree = boxes } else {
            do { tree = try BMFFBox.parse(source) } catch { throw .container(error) }
        }
        let (ranges, markers) = try exclusionRanges(source: source, boxes: tree)
        return try RangeHasher.hash(source, excluding: ranges, markers: markers, algorithm: algorithm)
    }
}

extension DigestAlgorithm {
    /// The algorithm for a C2PA `alg` name, the claim's default when nil.
    public static func c2pa(_ name: String?, default fallback: String? = "sha256") throws(HashAssertionError) -> DigestAlgorithm {
        let n = name ?? fallback ?? "sha256"
        guard let a = DigestAlgorithm(c2paName: n) else { throw .unsupportedAlgorithm(n) }
        return a
    }
}
