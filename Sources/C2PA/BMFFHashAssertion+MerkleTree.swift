import Crypto

extension BMFFHashAssertion {
    /// A C2PA `merkle` uuid box's entry (c2pa-rs `BmffMerkleMap`): which map and leaf it proves,
    /// and the proof from the leaf up to the layer the map stores.
    ///
    ///     uuid(C2PA usertype) version/flags(4) "merkle\0"  CBOR { uniqueId, localId, location, hashes: [* bstr] / null }  zero padding
    public struct MerkleProofBox: Sendable, Equatable {
        public var uniqueID: UInt64
        public var localID: UInt64
        public var location: UInt64
        public var proof: [[UInt8]]?

        /// Parses the box body after the purpose. The CBOR item may be followed only by zeros (the
        /// writer pads every box to the longest); other trailing bytes are refused — no hash
        /// covers these boxes (the default exclusions drop every C2PA `uuid`), so their padding
        /// must be as written.
        /// `strictPadding: false` accepts any trailing bytes, as c2pa-rs's reader does (the
        /// container reader's check that the box decodes at all).
        public init(body: [UInt8], strictPadding: Bool = true) throws(HashAssertionError) {
            let (c, used): (CBOR, Int)
            do { (c, used) = try CBOR.decodePrefix(body) } catch { throw .badField("merkle box") }
            guard !strictPadding || body[used...].allSatisfy({ $0 == 0 }) else { throw .badField("merkle box padding") }
            func uint(_ k: String) throws(HashAssertionError) -> UInt64 {
                guard let v = c[k]?.intValue, v >= 0 else { throw .badField("merkle box \(k)") }
                return UInt64(v)
            }
            uniqueID = try uint("uniqueId")
            localID = try uint("localId")
            location = try uint("location")
            if let h = BMFFHashAssertion.present(c["hashes"]) {
                guard let a = h.arrayValue else { throw .badField("merkle box hashes") }
                var out: [[UInt8]] = []
                for x in a {
                    guard let b = x.bytesValue else { throw .badField("merkle box hashes") }
                    out.append(b)
                }
                proof = out
            }
        }

        public init(uniqueID: UInt64, localID: UInt64, location: UInt64, proof: [[UInt8]]?) {
            self.uniqueID = uniqueID
            self.localID = localID
            self.location = location
            self.proof = proof
        }

        public var cbor: CBOR {
            .textMap([("uniqueId", .unsigned(uniqueID)), ("localId", .unsigned(localID)), ("location", .unsigned(location)),
                      ("hashes", proof.map { .array($0.map { .bytes($0) }) } ?? .null)])
        }
    }
}

extension BMFFHashAssertion.MerkleMap {
    /// The node count of each layer of a tree of `leaves` leaves, leaves first (c2pa-rs
    /// `C2PAMerkleTree::to_layout`): an odd last node is carried up unchanged.
    static func layout(_ leaves: UInt64) -> [UInt64] {
        var out = [leaves]
        var n = leaves
        while n > 1 {
            n = (n + 1) / 2
            out.append(n)
        }
        return out
    }

    /// The layers of the tree over `leaves` (c2pa-rs `generate_tree`): parent = H(left ‖ right).
    static func layers(_ leaves: [[UInt8]], _ alg: DigestAlgorithm) -> [[[UInt8]]] {
        var out = [leaves]
        var cur = leaves
        while cur.count > 1 {
            var next: [[UInt8]] = []
            var i = 0
            while i < cur.count {
                next.append(i + 1 < cur.count ? MessageDigest.digest(cur[i] + cur[i + 1], alg) : cur[i])
                i += 2
            }
            out.append(next)
            cur = next
        }
        return out
    }

    /// Whether leaf `hash` at `location` leads, with `proof` (sibling hashes from the leaf up), to
    /// the node this map stores at its layer — the layer whose node count equals `hashes.count`
    /// (c2pa-rs `MerkleMap::check_merkle_tree`). Without a proof the map stores the leaves.
    func check(leaf hash: [UInt8], location: UInt64, proof: [[UInt8]]?, alg: DigestAlgorithm) -> Bool {
        guard location < count else { return false }
        var index = location
        var node = hash
        var used = 0
        for layer in Self.layout(count) {
            if layer == UInt64(hashes.count) { break }
            if let proof {
                if index % 2 == 1 {
                    guard used < proof.count else { return false }
                    node = MessageDigest.digest(proof[used] + node, alg)
                    used += 1
                } else if index + 1 < layer {
                    guard used < proof.count else { return false }
                    node = MessageDigest.digest(node + proof[used], alg)
                    used += 1
                }
            }
            index /= 2
        }
        return index < UInt64(hashes.count) && hashes[Int(index)] == node
    }
}
