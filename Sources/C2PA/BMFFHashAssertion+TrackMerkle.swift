import Crypto

extension BMFFHashAssertion {
    /// c2pa-rs's timed-media case of `verify_stream_hash` (an unfragmented file with `moov`,
    /// `merkle` uuid boxes and maps without block sizes): each map names a track (`localId` =
    /// its track ID); its leaves are the track's chunks, each the hash of its samples' bytes in
    /// order (`stsc`, `stsz`, `stco`/`co64`); the merkle boxes, `count` per map in file order,
    /// say which chunk (`location` + 1) each proves. A track not found, without samples, a box
    /// naming a chunk with no samples or one already used, or a sample the tables place outside
    /// the file is a `mismatch`, as there.
    func verifyTrackChunks(_ maps: [MerkleMap], algorithms: [DigestAlgorithm], proofs: [MerkleProofBox],
                           source: some ByteSource, tree: [BMFFBox]) throws(HashAssertionError) -> BMFFHashVerdict {
        let tables = try BMFFSampleTables(source: source, tree: tree)
        guard !tables.tracks.isEmpty else { return .mismatch("no tracks for timed-media Merkle verification") }
        // c2pa-rs split_bmff_merkle_map: the boxes, `count` per map, keyed by its localId.
        var groups: [UInt64: ArraySlice<MerkleProofBox>] = [:]
        var rest = proofs[...]
        for m in maps {
            guard m.count <= UInt64(rest.count) else { return .mismatch("merkle map count incorrect") }
            groups[m.localID] = rest.prefix(Int(m.count))
            rest = rest.dropFirst(Int(m.count))
        }
        for (m, algorithm) in zip(maps, algorithms) {
            guard m.localID <= UInt64(UInt32.max), let track = tables.tracks[UInt32(m.localID)] else {
                return .mismatch("merkle location not found (no track \(m.localID))")
            }
            guard !track.sampleSizes.isEmpty else { return .mismatch("track \(track.id) has no samples") }
            let group = groups[m.localID] ?? []
            var wanted: Set<UInt32> = []
            for box in group {
                guard box.location < UInt64(UInt32.max) else { return .mismatch("could not generate hash") }
                wanted.insert(UInt32(box.location) + 1)
            }
            // One pass over the samples: a digest per chunk a box names.
            var digests: [UInt32: MessageDigest] = [:]
            var outside = false
            try track.forEachSample { chunk, range throws(HashAssertionError) in
                guard wanted.contains(chunk) else { return }
                guard let range, range.upperBound <= UInt64(source.count) else { outside = true; return }
                let d = digests[chunk] ?? MessageDigest(algorithm)
                digests[chunk] = d
                do throws(ByteSourceError) {
                    try source.forEachChunkInPlace(in: Int64(range.lowerBound)..<Int64(range.upperBound),
                                                   chunkSize: Int(min(range.upperBound - range.lowerBound, 1 << 20)) + 1) { d.update($0) }
                } catch { throw .io(error) }
            }
            if outside { return .mismatch("merkle location not found (a sample outside the file)") }
            var leaves: [[UInt8]] = []
            for box in group {
                guard let d = digests.removeValue(forKey: UInt32(box.location) + 1) else { return .mismatch("could not generate hash") }
                leaves.append(d.finalize())
            }
            for box in group {
                guard box.location < UInt64(leaves.count) else { return .mismatch("merkle box location exceeds the leaf count") }
                guard m.check(leaf: leaves[Int(box.location)], location: box.location, proof: box.proof, alg: algorithm) else {
                    return .mismatch("track \(track.id) chunk \(box.location + 1) does not match the merkle map")
                }
            }
        }
        return .match
    }
}
