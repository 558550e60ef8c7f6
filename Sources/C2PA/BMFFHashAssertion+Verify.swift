import Crypto
import Ground

/// What checking a BMFF hash assertion against a file found (c2pa-rs `verify_stream_hash` on one
/// file: `match` → `assertion.bmffHash.match`, `mismatch` → `.mismatch`, `malformed` →
/// `.malformed`). Every Merkle tree is recomputed (fragments, mdat blocks, track chunks), so the
/// `unsupported` verdict of before issue 16 is gone.
public enum BMFFHashVerdict: Sendable, Equatable {
    case match
    case mismatch(String)
    case malformed(String)

    /// The status-code suffix: `assertion.bmffHash.<status>`.
    public var status: String {
        switch self {
        case .match: "match"
        case .mismatch: "mismatch"
        case .malformed: "malformed"
        }
    }

    public var explanation: String? {
        switch self {
        case .match: nil
        case .mismatch(let w), .malformed(let w): w
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
    ///    is a mismatch, as in c2pa-rs — then the trees: fragmented, each fragment (a run of
    ///    top-level boxes from a `moof`, minus the exclusions) is a leaf proved by its `merkle`
    ///    uuid box; unfragmented, each `mdat`'s blocks are the leaves (`verifyMdatBlocks`), or, for
    ///    timed media with merkle boxes and maps without block sizes, each track's chunks
    ///    (`verifyTrackChunks`).
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
        var algorithms: [DigestAlgorithm] = []
        for m in maps {
            guard let name = m.alg ?? alg else { return .mismatch("no algorithm for the merkle map") }
            let algorithm = try DigestAlgorithm.c2pa(name)
            algorithms.append(algorithm)
            guard let initHash = m.initHash else { continue }
            guard firstMoof != nil else { return .mismatch("initHash in a file without fragments (no moof)") }
            let actual = try initSegmentHash(source: source, tree: tree, ranges: ranges, markers: markers, algorithm: algorithm)
            if actual != initHash { return .mismatch("initialization segment hash does not match") }
        }
        let proofs = try Self.merkleProofBoxes(in: tree, source: source)
        if let moof = firstMoof {
            // c2pa-rs split_fragment_boxes: runs of top-level boxes from each moof to the next.
            let runs = moof == tree.first ? [] : Self.fragmentRuns(tree)
            for (m, algorithm) in zip(maps, algorithms) {
                guard UInt64(runs.count) == m.count, UInt64(proofs.count) == m.count else {
                    return .mismatch("incorrect number of fragment hashes")
                }
                for (i, run) in runs.enumerated() {
                    let n = UInt64(source.count)
                    let hash = try RangeHasher.hash(source, excluding: ranges + [(0, run.lowerBound), (run.upperBound, n - run.upperBound)],
                                                    markers: markers, algorithm: algorithm)
                    guard m.check(leaf: hash, location: proofs[i].location, proof: proofs[i].proof, alg: algorithm) else {
                        return .mismatch("fragment \(i) does not match the merkle map")
                    }
                }
            }
            return .match
        }
        let timedMedia = tree.contains { $0.type == "moov" } && !proofs.isEmpty
        if timedMedia && !maps.allSatisfy({ $0.fixedBlockSize != nil || $0.variableBlockSizes != nil }) {
            return try verifyTrackChunks(maps, algorithms: algorithms, proofs: proofs, source: source, tree: tree)
        }
        return try verifyMdatBlocks(maps, algorithms: algorithms, proofs: proofs, source: source, tree: tree)
    }

    /// c2pa-rs `validate_merkle_maps_mdat_boxes`: one map per top-level `mdat`, its leaves the
    /// mdat's bytes from offset 16 (the spec's fixed mdat exclusion, header and 8 more bytes) in
    /// blocks of `fixedBlockSize`, of `variableBlockSizes`, or as one block; checked against the
    /// map directly (its leaves, or its root when it stores one hash), or through the proofs of
    /// the `merkle` uuid boxes, taken in order, `count` per map.
    private func verifyMdatBlocks(_ maps: [MerkleMap], algorithms: [DigestAlgorithm], proofs: [MerkleProofBox],
                                  source: some ByteSource, tree: [BMFFBox]) throws(HashAssertionError) -> BMFFHashVerdict {
        if maps.contains(where: { $0.fixedBlockSize != nil && $0.variableBlockSizes != nil }) {
            return .mismatch("a merkle map with both fixed and variable block sizes")
        }
        let mdats = tree.filter { $0.type == "mdat" }
        if mdats.count != maps.count { return .mismatch("number of merkle maps does not match the mdat boxes") }
        var remaining = proofs[...]
        for ((mdat, m), algorithm) in zip(zip(mdats, maps), algorithms) {
            // c2pa-rs saturates: an mdat shorter than 16 bytes has one empty block at its end.
            let end = UInt64(mdat.range.upperBound)
            let start = min(UInt64(mdat.range.lowerBound) + 16, end)
            let size = end - start
            var blocks: [Range<UInt64>] = []
            if let fixed = m.fixedBlockSize {
                guard fixed > 1 else { return .mismatch("fixed block size must be more than 1") }
                guard Self.leafBudget(size.quotientAndRemainder(dividingBy: fixed).quotient + 1, algorithm) else {
                    return .mismatch("merkle tree larger than the leaf budget")
                }
                var at = start
                while at < end {
                    let (next, o) = at.addingReportingOverflow(fixed)
                    blocks.append(at..<(o ? end : min(end, next)))
                    if o { break }
                    at = next
                }
            } else if let sizes = m.variableBlockSizes {
                let (sum, o) = sizes.reduce((UInt64(0), false)) { acc, x in
                    let (r, of) = acc.0.addingReportingOverflow(x)
                    return (r, acc.1 || of)
                }
                guard !o, sum == size else { return .mismatch("variable block sizes do not match the mdat size") }
                guard Self.leafBudget(UInt64(sizes.count), algorithm) else { return .mismatch("merkle tree larger than the leaf budget") }
                var at = start
                for n in sizes { blocks.append(at..<(at + n)); at += n }
            } else {
                blocks = [start..<end]
            }
            func leaf(_ r: Range<UInt64>) throws(HashAssertionError) -> [UInt8] {
                let n = UInt64(source.count)
                guard r.upperBound <= n else { throw .exclusionOutOfRange }
                return try RangeHasher.hash(source, excluding: [(0, r.lowerBound), (r.upperBound, n - r.upperBound)], markers: [],
                                            algorithm: algorithm)
            }
            if proofs.isEmpty {
                guard UInt64(blocks.count) == m.count else { return .mismatch("number of leaves does not match the merkle map count") }
                if m.hashes.count == 1 && m.count > 1 {
                    var leaves: [[UInt8]] = []
                    for b in blocks { leaves.append(try leaf(b)) }
                    guard MerkleMap.layers(leaves, algorithm).last?.first == m.hashes[0] else { return .mismatch("merkle root does not match") }
                } else {
                    for (i, b) in blocks.enumerated() where !m.check(leaf: try leaf(b), location: UInt64(i), proof: nil, alg: algorithm) {
                        return .mismatch("mdat block \(i) does not match the merkle map")
                    }
                }
            } else {
                guard UInt64(remaining.count) >= m.count else { return .mismatch("merkle map count exceeds the merkle boxes") }
                let mine = remaining.prefix(Int(m.count))
                remaining = remaining.dropFirst(Int(m.count))
                guard blocks.count == mine.count else { return .mismatch("number of mdat blocks does not match the merkle boxes") }
                for (b, p) in zip(blocks, mine) where !m.check(leaf: try leaf(b), location: p.location, proof: p.proof, alg: algorithm) {
                    return .mismatch("mdat block does not match the merkle map")
                }
            }
        }
        return .match
    }

    /// c2pa-rs `MAX_MERKLE_LEAVES_SIZE`: at most 32 MiB of leaf hashes per tree.
    static func leafBudget(_ leaves: UInt64, _ alg: DigestAlgorithm) -> Bool {
        leaves.multipliedReportingOverflow(by: UInt64(alg.outputLength)).partialValue <= 32 << 20 && leaves < 1 << 40
    }

    /// The file ranges of the fragments: from each top-level `moof` to the next (the last to the
    /// end of the last box), as c2pa-rs's `split_fragment_boxes`.
    static func fragmentRuns(_ tree: [BMFFBox]) -> [Range<UInt64>] {
        guard let first = tree.firstIndex(where: { $0.type == "moof" }) else { return [] }
        var runs: [Range<UInt64>] = []
        var start = UInt64(tree[first].range.lowerBound)
        for b in tree[(first + 1)...] where b.type == "moof" {
            runs.append(start..<UInt64(b.range.lowerBound))
            start = UInt64(b.range.lowerBound)
        }
        runs.append(start..<UInt64(tree.last?.range.upperBound ?? 0))
        return runs
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

    /// The entries of the top-level C2PA `uuid` boxes whose purpose is `merkle`, in file order.
    static func merkleProofBoxes(in tree: [BMFFBox], source: some ByteSource) throws(HashAssertionError) -> [MerkleProofBox] {
        var out: [MerkleProofBox] = []
        for b in tree where b.type == "uuid" && b.userType == BMFFBox.c2paUserType {
            let at = b.bodyRange.lowerBound + 4
            let want = Array("merkle".utf8) + [0]
            guard at + Int64(want.count) <= b.range.upperBound else { continue }
            let got: [UInt8]
            do { got = try source.readExactly(at: at, count: want.count) } catch { throw .io(error) }
            guard got == want else { continue }
            let bodyAt = at + Int64(want.count)
            guard b.range.upperBound - bodyAt <= 1 << 20 else { throw .badField("merkle box size") }
            let body: [UInt8]
            do { body = try source.readExactly(at: bodyAt, count: Int(b.range.upperBound - bodyAt)) } catch { throw .io(error) }
            out.append(try MerkleProofBox(body: body))
        }
        return out
    }
}
