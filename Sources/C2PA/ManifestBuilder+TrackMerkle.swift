import Crypto

extension ManifestBuilder {
    /// An unfragmented `mp4` (holding no store) signed with a `c2pa.hash.bmff.v3` whose Merkle
    /// map covers one track's chunks (C2PA 2.x timed media; c2pa-rs's timed-media check in
    /// `verify_stream_hash`): each leaf the hash of a chunk's samples, a `merkle` uuid box per
    /// chunk appended after the last box (nothing moves), the map storing the leaves or the root
    /// (then each box carries its proof), and the whole-file `hash` too when `fileHash`.
    public func signTrackMerkleMP4(_ mp4: [UInt8], trackID: UInt32 = 1, stored: StoredLayer = .leaves,
                                   fileHash: Bool = true) throws(BuildError) -> [UInt8] {
        do {
            let tables = try BMFFSampleTables(source: MemoryByteSource(mp4), tree: try BMFFBox.parse(MemoryByteSource(mp4)))
            guard let track = tables.tracks[trackID], !track.chunkOffsets.isEmpty else { throw BuildError.container(.noInsertionPoint) }
            let n = track.chunkOffsets.count
            let depth = MerkleMapShape.proofLengths(leaves: n)
            func proof(_ i: Int, _ hashes: [[UInt8]]?) -> BMFFHashAssertion.MerkleProofBox {
                .init(uniqueID: 1, localID: UInt64(trackID), location: UInt64(i),
                      proof: stored == .root ? hashes ?? Array(repeating: [UInt8](repeating: 0, count: 32), count: depth[i]) : nil)
            }
            let pad = (0..<n).map { proof($0, nil).cbor.encoded().count }.max() ?? 0
            let withBoxes = mp4 + (0..<n).flatMap { BMFFContainer.merkleBox(proof($0, nil), padTo: pad) }
            let reserve = try signatureReserve()
            var template = BMFFHashAssertion(version: 3, hash: fileHash ? [UInt8](repeating: 0, count: 32) : nil)
            template.merkle = [.init(uniqueID: 1, localID: UInt64(trackID), count: UInt64(n), alg: "sha256",
                                     hashes: stored == .root ? [[UInt8](repeating: 0, count: 32)] : Array(repeating: [UInt8](repeating: 0, count: 32), count: n))]
            func assertion(_ a: BMFFHashAssertion) -> (String, CBOR) { (BMFFHashAssertion.label(version: 3), a.cbor) }
            let placeholder = try store(hashAssertion: assertion(template), signatureSize: reserve, placeholder: true)
            let (embedded, _) = try BMFFContainer.embed(placeholder, into: withBoxes)
            let esrc = MemoryByteSource(embedded)
            let etree = try BMFFBox.parse(esrc)
            guard let moved = try BMFFSampleTables(source: esrc, tree: etree).tracks[trackID] else { throw BuildError.container(.noInsertionPoint) }
            var digests: [UInt32: MessageDigest] = [:]
            try moved.forEachSample { chunk, range throws(HashAssertionError) in
                guard let range else { throw .exclusionOutOfRange }
                let d = digests[chunk] ?? MessageDigest(.sha256)
                digests[chunk] = d
                d.update(embedded[Int(range.lowerBound)..<Int(range.upperBound)])
            }
            let leaves = (1...n).map { digests[UInt32($0)]?.finalize() ?? [] }
            let layers = BMFFHashAssertion.MerkleMap.layers(leaves, .sha256)
            var final = template
            final.merkle?[0].hashes = stored == .root ? [layers.last![0]] : leaves
            if fileHash { final.hash = try template.computeHash(over: esrc, boxes: etree, algorithm: .sha256) }
            var out = embedded
            let boxes = etree.filter { $0.type == "uuid" && $0.userType == BMFFBox.c2paUserType }.dropFirst() // after the manifest box
            for (i, b) in boxes.enumerated() {
                let box = BMFFContainer.merkleBox(proof(i, stored == .root ? MerkleMapShape.proof(layers, index: i) : nil), padTo: pad)
                out.replaceSubrange(Int(b.range.lowerBound)..<Int(b.range.upperBound), with: box)
            }
            let store = try store(hashAssertion: assertion(final), signatureSize: reserve, placeholder: false)
            return try BMFFContainer.replace(store, in: out)
        } catch let e as BuildError { throw e } catch let e as ContainerError { throw .container(e) }
        catch let e as HashAssertionError { throw .hash(e) } catch { throw .layoutUnstable }
    }
}
