/// `c2pa.hash.bmff` (v1), `c2pa.hash.bmff.v2` and `c2pa.hash.bmff.v3`: a hash of an ISO BMFF
/// file minus boxes picked by exclusion predicates. v2 and v3 hash each kept top-level box's
/// 8-byte big-endian offset before it; v1 hashes no offsets (c2pa-rs: `bmff_version > 1`).
///
///     { exclusions: [* { xpath: tstr, ? length: uint, ? data: [* { offset: uint, value: bstr }],
///                        ? subset: [* { offset: uint, length: uint }], ? version: uint,
///                        ? flags: bstr(3), ? exact: bool }],
///       ? alg: tstr, ? hash: bstr, ? merkle: [* merkle-map], ? name: tstr, ? url: tstr }
///
/// An optional field written as CBOR `null` is absent (serde's `Option`, as older c2pa-rs wrote
/// every unset field). `url` (a remote hash) is deprecated: c2pa-rs refuses it.
public struct BMFFHashAssertion: Sendable, Equatable {
    public struct Exclusion: Sendable, Equatable {
        public struct DataMatch: Sendable, Equatable {
            public var offset: UInt64
            public var value: [UInt8]
            public init(offset: UInt64, value: [UInt8]) { self.offset = offset; self.value = value }
        }
        public struct Subset: Sendable, Equatable {
            public var offset: UInt64
            public var length: UInt64
            public init(offset: UInt64, length: UInt64) { self.offset = offset; self.length = length }
        }
        public var xpath: String
        public var length: UInt64?
        public var data: [DataMatch]?
        public var subset: [Subset]?
        public var version: UInt8?
        public var flags: [UInt8]?
        public var exact: Bool?

        public init(xpath: String, length: UInt64? = nil, data: [DataMatch]? = nil, subset: [Subset]? = nil,
                    version: UInt8? = nil, flags: [UInt8]? = nil, exact: Bool? = nil) {
            self.xpath = xpath
            self.length = length
            self.data = data
            self.subset = subset
            self.version = version
            self.flags = flags
            self.exact = exact
        }
    }

    /// 2 or 3 (from the label).
    public var version: Int
    public var exclusions: [Exclusion]
    public var alg: String?
    public var hash: [UInt8]?
    public var merkle: [MerkleMap]?
    public var name: String?
    /// The deprecated remote-hash URL (v1); present means c2pa-rs refuses the assertion.
    public var url: String?

    /// `c2pa.hash.bmff` for version 1, `c2pa.hash.bmff.vN` after.
    public static func label(version: Int) -> String { version == 1 ? "c2pa.hash.bmff" : "c2pa.hash.bmff.v\(version)" }

    /// The exclusions c2pa-rs writes by default: the C2PA `uuid` box (data match on its usertype
    /// at offset 8), `/ftyp`, `/mfra`, `/free`, `/skip`.
    public static let defaultExclusions: [Exclusion] = [
        Exclusion(xpath: "/uuid", data: [.init(offset: 8, value: BMFFBox.c2paUserType)]),
        Exclusion(xpath: "/ftyp"), Exclusion(xpath: "/mfra"), Exclusion(xpath: "/free"), Exclusion(xpath: "/skip"),
    ]

    public init(version: Int = 2, exclusions: [Exclusion] = BMFFHashAssertion.defaultExclusions, alg: String? = "sha256",
                hash: [UInt8]?, name: String? = "jumbf manifest") {
        self.version = version
        self.exclusions = exclusions
        self.alg = alg
        self.hash = hash
        self.merkle = nil
        self.name = name
        self.url = nil
    }

    public init(label: String, cbor c: CBOR) throws(HashAssertionError) {
        switch label {
        case "c2pa.hash.bmff": version = 1
        case "c2pa.hash.bmff.v2": version = 2
        case "c2pa.hash.bmff.v3": version = 3
        default: throw .badField("label")
        }
        guard c.mapValue != nil else { throw .notAMap }
        var ex: [Exclusion] = []
        if let list = Self.present(c["exclusions"]) {
            guard let items = list.arrayValue else { throw .badField("exclusions") }
            for item in items { ex.append(try Exclusion(cbor: item)) }
        }
        exclusions = ex
        alg = try Self.present(c["alg"]).map { v throws(HashAssertionError) in
            guard let t = v.textValue else { throw .badField("alg") }
            return t
        }
        hash = try Self.present(c["hash"]).map { v throws(HashAssertionError) in
            guard let b = v.bytesValue else { throw .badField("hash") }
            return b
        }
        merkle = try Self.present(c["merkle"]).map { v throws(HashAssertionError) in
            guard let a = v.arrayValue else { throw .badField("merkle") }
            var maps: [MerkleMap] = []
            for m in a { maps.append(try MerkleMap(cbor: m)) }
            return maps
        }
        name = Self.present(c["name"])?.textValue
        url = Self.present(c["url"]).map { $0.textValue ?? "" }
    }

    /// A map value, nil when absent or CBOR `null`.
    static func present(_ v: CBOR?) -> CBOR? {
        guard let v, !v.isNull else { return nil }
        return v
    }

    /// The assertion CBOR in c2pa-rs's key order.
    public var cbor: CBOR { cbor(exclusionNulls: false) }

    /// The assertion CBOR; `exclusionNulls` writes every unset exclusion field as `null`, as
    /// c2pa-rs did before it skipped unset fields (its `legacy.mp4` and `video1.mp4` fixtures).
    public func cbor(exclusionNulls: Bool) -> CBOR {
        var pairs: [(String, CBOR)] = [("exclusions", .array(exclusions.map { $0.cbor(nulls: exclusionNulls) }))]
        if let alg { pairs.append(("alg", .text(alg))) }
        if let hash { pairs.append(("hash", .bytes(hash))) }
        if let merkle { pairs.append(("merkle", .array(merkle.map(\.cbor)))) }
        if let name { pairs.append(("name", .text(name))) }
        return .textMap(pairs)
    }
}
