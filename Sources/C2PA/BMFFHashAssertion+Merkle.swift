extension BMFFHashAssertion {
    /// One entry of a BMFF hash's `merkle` array (C2PA 2.x, c2pa-rs `MerkleMap`):
    ///
    ///     { uniqueId: uint, localId: uint, count: uint, ? alg: tstr, ? initHash: bstr,
    ///       hashes: [+ bstr], ? fixedBlockSize: uint, ? variableBlockSizes: [+ uint] }   ; block sizes: v3
    ///
    /// `initHash` is the hash of a fragmented file's initialization segment (everything before
    /// the first `moof`, minus the exclusions); `hashes` are a layer of the Merkle tree whose
    /// leaves are the fragments (or mdat blocks, or track chunks).
    public struct MerkleMap: Sendable, Equatable {
        public var uniqueID: UInt64
        public var localID: UInt64
        public var count: UInt64
        public var alg: String?
        public var initHash: [UInt8]?
        public var hashes: [[UInt8]]
        public var fixedBlockSize: UInt64?
        public var variableBlockSizes: [UInt64]?

        public init(uniqueID: UInt64, localID: UInt64, count: UInt64, alg: String? = nil, initHash: [UInt8]? = nil,
                    hashes: [[UInt8]], fixedBlockSize: UInt64? = nil, variableBlockSizes: [UInt64]? = nil) {
            self.uniqueID = uniqueID
            self.localID = localID
            self.count = count
            self.alg = alg
            self.initHash = initHash
            self.hashes = hashes
            self.fixedBlockSize = fixedBlockSize
            self.variableBlockSizes = variableBlockSizes
        }

        init(cbor m: CBOR) throws(HashAssertionError) {
            guard m.mapValue != nil else { throw .badField("merkle") }
            func uint(_ key: String) throws(HashAssertionError) -> UInt64 {
                guard let v = m[key]?.intValue, v >= 0 else { throw .badField("merkle.\(key)") }
                return UInt64(v)
            }
            uniqueID = try uint("uniqueId")
            localID = try uint("localId")
            count = try uint("count")
            guard let hs = m["hashes"]?.arrayValue else { throw .badField("merkle.hashes") }
            var hashes: [[UInt8]] = []
            for h in hs {
                guard let b = h.bytesValue else { throw .badField("merkle.hashes") }
                hashes.append(b)
            }
            self.hashes = hashes
            if let a = BMFFHashAssertion.present(m["alg"]) {
                guard let t = a.textValue else { throw .badField("merkle.alg") }
                alg = t
            }
            if let i = BMFFHashAssertion.present(m["initHash"]) {
                guard let b = i.bytesValue else { throw .badField("merkle.initHash") }
                initHash = b
            }
            if BMFFHashAssertion.present(m["fixedBlockSize"]) != nil { fixedBlockSize = try uint("fixedBlockSize") }
            if let v = BMFFHashAssertion.present(m["variableBlockSizes"]) {
                guard let a = v.arrayValue else { throw .badField("merkle.variableBlockSizes") }
                var sizes: [UInt64] = []
                for s in a {
                    guard let n = s.intValue, n >= 0 else { throw .badField("merkle.variableBlockSizes") }
                    sizes.append(UInt64(n))
                }
                variableBlockSizes = sizes
            }
        }

        /// The map in c2pa-rs's field order.
        public var cbor: CBOR {
            var p: [(String, CBOR)] = [("uniqueId", .unsigned(uniqueID)), ("localId", .unsigned(localID)),
                                       ("count", .unsigned(count))]
            if let alg { p.append(("alg", .text(alg))) }
            if let initHash { p.append(("initHash", .bytes(initHash))) }
            p.append(("hashes", .array(hashes.map { .bytes($0) })))
            if let fixedBlockSize { p.append(("fixedBlockSize", .unsigned(fixedBlockSize))) }
            if let variableBlockSizes { p.append(("variableBlockSizes", .array(variableBlockSizes.map { .unsigned($0) }))) }
            return .textMap(p)
        }
    }
}
