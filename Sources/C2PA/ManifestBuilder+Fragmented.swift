import Crypto

extension BMFFContainer {
    /// A C2PA `uuid` box of purpose `merkle` holding `proof`'s CBOR, zero-padded to `padTo` bytes
    /// of CBOR (c2pa-rs pads every merkle box to the longest).
    public static func merkleBox(_ proof: BMFFHashAssertion.MerkleProofBox, padTo: Int = 0) -> [UInt8] {
        var cbor = proof.cbor.encoded()
        if cbor.count < padTo { cbor += [UInt8](repeating: 0, count: padTo - cbor.count) }
        let body = BMFFBox.c2paUserType + [0, 0, 0, 0] + Array("merkle".utf8) + [0] + cbor
        return BigEndian.bytes(UInt32(body.count + 8)) + Array("uuid".utf8) + body
    }
}

extension ManifestBuilder {
    /// Which layer of the fragment tree the merkle map stores.
    public enum StoredLayer: Sendable {
        /// The leaves (one hash per fragment); the merkle boxes carry no proof.
        case leaves
        /// The root alone; each merkle box carries its fragment's proof up to it.
        case root
    }

    /// A fragmented `mp4` (`moof`/`mdat` runs after an empty `moov`; holding no store) signed with
    /// a `c2pa.hash.bmff.v3` whose Merkle map has one leaf per fragment (C2PA 2.x, 15.12.3; the
    /// layout c2pa-rs's `verify_stream_hash` checks for a file holding every fragment): the
    /// fragment's boxes, from its `moof` to the next, minus the default exclusions and with the
    /// v3 offset markers, hashed; a `merkle` uuid box after each fragment's first `mdat` (where it
    /// moves no `moof`-relative data offset) naming its leaf; `initHash` over everything before the
    /// first `moof`; and the whole-file `hash` too when `fileHash`.
    public func signFragmentedMP4(_ mp4: [UInt8], stored: StoredLayer = .leaves, initHash: Bool = true,
                                  fileHash: Bool = true) throws(BuildError) -> [UInt8] {
        do {
            let src = MemoryByteSource(mp4)
            let tree = try BMFFBox.parse(src)
            let runs = BMFFHashAssertion.fragmentRuns(tree)
            guard let firstMoof = tree.firstIndex(where: { $0.type == "moof" }), firstMoof > 0, !runs.isEmpty else {
                throw BuildError.container(.noInsertionPoint)
            }
            // 1. Placeholder merkle boxes of their final size after each fragment's first mdat.
            let n = UInt64(runs.count)
            let depth = MerkleMapShape.proofLengths(leaves: Int(n))
            func proof(_ i: Int, _ hashes: [[UInt8]]?) -> BMFFHashAssertion.MerkleProofBox {
                .init(uniqueID: 1, localID: 1, location: UInt64(i), proof: stored == .root ? hashes ?? Array(repeating: [UInt8](repeating: 0, count: 32), count: depth[i]) : nil)
            }
            let pad = (0..<runs.count).map { proof($0, nil).cbor.encoded().count }.max() ?? 0
            var withBoxes = mp4
            var shift = 0
            var boxAt: [Int] = []
            for r in runs {
                guard let mdat = tree.first(where: { $0.type == "mdat" && UInt64($0.range.lowerBound) >= r.lowerBound
                    && UInt64($0.range.upperBound) <= r.upperBound }) else { throw BuildError.container(.noInsertionPoint) }
                let at = Int(mdat.range.upperBound) + shift
                let box = BMFFContainer.merkleBox(proof(boxAt.count, nil), padTo: pad)
                withBoxes.insert(contentsOf: box, at: at)
                boxAt.append(at)
                shift += box.count
            }
            // 2. The placeholder store, then the hashes over the laid-out file.
            let reserve = try signatureReserve()
            var template = BMFFHashAssertion(version: 3, hash: fileHash ? [UInt8](repeating: 0, count: 32) : nil)
            template.merkle = [.init(uniqueID: 1, localID: 1, count: n, alg: "sha256", initHash: initHash ? [UInt8](repeating: 0, count: 32) : nil,
                                     hashes: stored == .root ? [[UInt8](repeating: 0, count: 32)] : Array(repeating: [UInt8](repeating: 0, count: 32), count: runs.count))]
            func assertion(_ a: BMFFHashAssertion) -> (String, CBOR) { (BMFFHashAssertion.label(version: 3), a.cbor) }
            let placeholder = try store(hashAssertion: assertion(template), signatureSize: reserve, placeholder: true)
            let (embedded, storeRange) = try BMFFContainer.embed(placeholder, into: withBoxes)
            boxAt = boxAt.map { $0 + storeRange.count }
            let esrc = MemoryByteSource(embedded)
            let etree = try BMFFBox.parse(esrc)
            let (ranges, markers) = try template.exclusionRanges(source: esrc, boxes: etree)
            let total = UInt64(embedded.count)
            var leaves: [[UInt8]] = []
            for r in BMFFHashAssertion.fragmentRuns(etree) {
                leaves.append(try RangeHasher.hash(esrc, excluding: ranges + [(0, r.lowerBound), (r.upperBound, total - r.upperBound)],
                                                   markers: markers, algorithm: .sha256))
            }
            let layers = BMFFHashAssertion.MerkleMap.layers(leaves, .sha256)
            var final = template
            final.hash = fileHash ? try RangeHasher.hash(esrc, excluding: ranges, markers: markers, algorithm: .sha256) : nil
            final.merkle?[0].hashes = stored == .root ? [layers.last![0]] : leaves
            if initHash {
                let segment = try final.initSegmentHash(over: esrc, algorithm: .sha256)
                final.merkle?[0].initHash = segment
            }
            // 3. The final merkle boxes (same size) and the final store.
            var out = embedded
            for (i, at) in boxAt.enumerated() {
                let box = BMFFContainer.merkleBox(proof(i, stored == .root ? MerkleMapShape.proof(layers, index: i) : nil), padTo: pad)
                out.replaceSubrange(at..<(at + box.count), with: box)
            }
            let store = try store(hashAssertion: assertion(final), signatureSize: reserve, placeholder: false)
            return try BMFFContainer.replace(store, in: out)
        } catch let e as BuildError { throw e } catch let e as ContainerError { throw .container(e) }
        catch let e as HashAssertionError { throw .hash(e) } catch { throw .layoutUnstable }
    }
}

/// The shape of proofs in the C2PA Merkle tree (odd last nodes carried up unchanged): c2pa-rs
/// `get_proof_by_index` up to the root.
enum MerkleMapShape {
    /// Sibling hashes from each leaf to the root.
    static func proof(_ layers: [[[UInt8]]], index: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var i = index
        for layer in layers.dropLast() {
            if i % 2 == 1 { out.append(layer[i - 1]) } else if i + 1 < layer.count { out.append(layer[i + 1]) }
            i /= 2
        }
        return out
    }

    /// How many sibling hashes each leaf's proof has.
    static func proofLengths(leaves: Int) -> [Int] {
        let layout = BMFFHashAssertion.MerkleMap.layout(UInt64(leaves)).map(Int.init)
        return (0..<leaves).map { leaf in
            var i = leaf, n = 0
            for width in layout.dropLast() {
                if i % 2 == 1 || i + 1 < width { n += 1 }
                i /= 2
            }
            return n
        }
    }
}
