import Crypto
import Ground

/// What checking a BMFF hash assertion against a file found (c2pa-rs `verify_stream_hash` on one
/// file: `match` → `assertion.bmffHash.match`, `mismatch` → `.mismatch`, `malformed` →
/// `.malformed`; `unsupported` is ours: a Merkle tree we do not recompute).
public enum BMFFHashVerdict: Sendable, Equatable {
    case match
    case mismatch(String)
    case malformed(String)
    case unsupported(String)

    /// The status-code suffix: `assertion.bmffHash.<status>`.
    public var status: String {
        switch self {
        case .match: "match"
        case .mismatch: "mismatch"
        case .malformed: "malformed"
        case .unsupported: "unsupported"
        }
    }

    public var explanation: String? {
        switch self {
        case .match: nil
        case .mismatch(let w), .malformed(let w), .unsupported(let w): w
        }
    }
}

extension BMFFHashAssertion {
    /// Checks the assertion against `source` the way c2pa-rs does for a single file:
    /// 1. the assertion's own shape (no remote `url`; exclusions present; subsets ordered and
    ///    not overlapping; a `hash` or a `merkle` array — c2pa-rs accepts neither, we do not);
    /// 2. `hash`: the whole file minus the exclusions (v2/v3 with top-level offset markers);
    /// 3. `merkle`: each map's `initHash` over the initialization segment (everything before the
    ///    first top-level `moof`, minus the exclusions) — an `initHash` in a file without `moof`
    ///    is a mismatch, as in c2pa-rs — then the counts c2pa-rs requires before it walks the
    ///    trees (one map per mdat box when unfragmented; `count` fragments and merkle boxes when
    ///    fragmented). The trees themselves are not recomputed: `unsupported`.
    public func verify(over source: some ByteSource, boxes: [BMFFBox]? = nil, claimAlg: String?) -> BMFFHashVerdict {
        if url != nil { return .mismatch("remote BMFF hash (url) is deprecated") }
        if let problem = shapeProblem { return .malformed(problem) }
        do throws(HashAssertionError) {
            let tree: [BMFFBox]
            if let boxes { tree = boxes } else {
                do { tree = try BMFFBox.parse(source) } catch { throw .container(error) }
            }
            let (ranges, markers) = try exclusionRanges(source: source, boxes: tree)
            if let hash {
                let algorithm = try DigestAlgorithm.c2pa(alg, default: claimAlg)
                let actual = try RangeHasher.hash(source, excluding: ranges, markers: markers, algorithm: algorithm)
                if actual != hash { return .mismatch("asset hash does not match") }
            }
            guard let merkle else { return .match }
            return try verifyMerkle(merkle, source: source, tree: tree, ranges: ranges, markers: markers)
        } catch {
            return .mismatch(error.code)
        }
    }

    /// Why the assertion is malformed before any byte is read, or nil.
    var shapeProblem: String? {
        if exclusions.isEmpty { return "no exclusions" }
        for e in exclusions {
            guard let subsets = e.subset, subsets.count > 1 else { continue }
            if subsets != subsets.sorted(by: { $0.offset < $1.offset }) { return "subsets not ordered by offset" }
            for (a, b) in zip(subsets, subsets.dropFirst()) {
                let (end, o) = a.offset.addingReportingOverflow(a.length)
                if o || end > b.offset { return "subsets overlap" }
            }
        }
        if hash == nil && merkle == nil { return "neither hash nor merkle" }
        return nil
    }

    private func verifyMerkle(_ maps: [MerkleMap], source: some ByteSource, tree: [BMFFBox],
                              ranges: [(UInt64, UInt64)], markers: [UInt64]) throws(HashAssertionError) -> BMFFHashVerdict {
        let firstMoof = tree.first { $0.type == "moof" }
        for m in maps {
            guard let name = m.alg ?? alg else { return .mismatch("no algorithm for the merkle map") }
            guard let initHash = m.initHash else { continue }
            guard firstMoof != nil else { return .mismatch("initHash in a file without fragments (no moof)") }
            let actual = try initSegmentHash(source: source, tree: tree, ranges: ranges, markers: markers,
                                             algorithm: DigestAlgorithm.c2pa(name))
            if actual != initHash { return .mismatch("initialization segment hash does not match") }
        }
        let merkleBoxes = try Self.merkleBoxCount(in: tree, source: source)
        if let moof = firstMoof {
            // c2pa-rs split_fragment_boxes: runs of top-level boxes from each moof to the next.
            let fragments = moof == tree.first ? 0 : tree.filter { $0.type == "moof" }.count
            for m in maps where UInt64(fragments) != m.count || UInt64(merkleBoxes) != m.count {
                return .mismatch("incorrect number of fragment hashes")
            }
            return .unsupported("fragment Merkle trees are not recomputed")
        }
        let timedMedia = tree.contains { $0.type == "moov" } && merkleBoxes > 0
        if timedMedia && !maps.allSatisfy({ $0.fixedBlockSize != nil || $0.variableBlockSizes != nil }) {
            return .unsupported("track chunk Merkle trees are not recomputed")
        }
        if maps.contains(where: { $0.fixedBlockSize != nil && $0.variableBlockSizes != nil }) {
            return .mismatch("a merkle map with both fixed and variable block sizes")
        }
        if tree.filter({ $0.type == "mdat" }).count != maps.count {
            return .mismatch("number of merkle maps does not match the mdat boxes")
        }
        return maps.isEmpty ? .match : .unsupported("mdat Merkle trees are not recomputed")
    }

    /// A merkle map's `initHash` for a fragmented file: everything before the first top-level
    /// `moof`, minus the exclusions, with the offset markers (v2/v3); nil without a `moof`.
    public func initSegmentHash(over source: some ByteSource, algorithm: DigestAlgorithm) throws(HashAssertionError) -> [UInt8]? {
        let tree: [BMFFBox]
        do { tree = try BMFFBox.parse(source) } catch { throw .container(error) }
        guard tree.contains(where: { $0.type == "moof" }) else { return nil }
        let (ranges, markers) = try exclusionRanges(source: source, boxes: tree)
        return try initSegmentHash(source: source, tree: tree, ranges: ranges, markers: markers, algorithm: algorithm)
    }

    private func initSegmentHash(source: some ByteSource, tree: [BMFFBox], ranges: [(UInt64, UInt64)], markers: [UInt64],
                                 algorithm: DigestAlgorithm) throws(HashAssertionError) -> [UInt8] {
        let start = UInt64(tree.first { $0.type == "moof" }?.range.lowerBound ?? source.count)
        return try RangeHasher.hash(source, excluding: ranges + [(start, UInt64(source.count) - start)],
                                    markers: markers, algorithm: algorithm)
    }

    /// Top-level C2PA `uuid` boxes whose purpose is `merkle`.
    static func merkleBoxCount(in tree: [BMFFBox], source: some ByteSource) throws(HashAssertionError) -> Int {
        var n = 0
        for b in tree where b.type == "uuid" && b.userType == BMFFBox.c2paUserType {
            let at = b.bodyRange.lowerBound + 4
            let want = Array("merkle".utf8) + [0]
            guard at + Int64(want.count) <= b.range.upperBound else { continue }
            let got: [UInt8]
            do { got = try source.readExactly(at: at, count: want.count) } catch { throw .io(error) }
            if got == want { n += 1 }
        }
        return n
    }
}
