/// `c2pa.hash.bmff.v2` / `c2pa.hash.bmff.v3`: a hash of an ISO BMFF file minus boxes picked by
/// exclusion predicates, with each kept top-level box's 8-byte big-endian offset hashed before it.
///
///     { exclusions: [* { xpath: tstr, ? length: uint, ? data: [* { offset: uint, value: bstr }],
///                        ? subset: [* { offset: uint, length: uint }], ? version: uint,
///                        ? flags: bstr(3), ? exact: bool }],
///       ? alg: tstr, ? hash: bstr, ? merkle: [* merkle-map], ? name: tstr }
///
/// Merkle (fragmented / chunked mdat) hashing is recorded but not computed: `computeHash` throws
/// `merkleNotSupported` when the assertion has no plain `hash`.
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
    public var merkle: CBOR?
    public var name: String?

    public static func label(version: Int) -> String { "c2pa.hash.bmff.v\(version)" }

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
        for item in c["exclusions"]?.arrayValue ?? [] {
            guard let xpath = item["xpath"]?.textValue else { throw .badField("exclusions.xpath") }
            var e = Exclusion(xpath: xpath)
            if let l = item["length"] { guard let v = l.intValue, v >= 0 else { throw .badField("length") }; e.length = UInt64(v) }
            if let d = item["data"] {
                guard let a = d.arrayValue else { throw .badField("data") }
                var ms: [Exclusion.DataMatch] = []
                for m in a {
                    guard let o = m["offset"]?.intValue, o >= 0, let v = m["value"]?.bytesValue else { throw .badField("data") }
                    ms.append(.init(offset: UInt64(o), value: v))
                }
                e.data = ms
            }
            if let s = item["subset"] {
                guard let a = s.arrayValue else { throw .badField("subset") }
                var ss: [Exclusion.Subset] = []
                for m in a {
                    guard let o = m["offset"]?.intValue, o >= 0, let l = m["length"]?.intValue, l >= 0 else {
                        throw .badField("subset")
                    }
                    ss.append(.init(offset: UInt64(o), length: UInt64(l)))
                }
                e.subset = ss
            }
            if let v = item["version"] { guard let n = v.intValue, (0...255).contains(n) else { throw .badField("version") }; e.version = UInt8(n) }
            if let f = item["flags"] { guard let b = f.bytesValue else { throw .badField("flags") }; e.flags = b }
            if let x = item["exact"] { guard let b = x.boolValue else { throw .badField("exact") }; e.exact = b }
            ex.append(e)
        }
        exclusions = ex
        alg = c["alg"]?.textValue
        hash = c["hash"]?.bytesValue
        merkle = c["merkle"]
        name = c["name"]?.textValue
    }

    /// The assertion CBOR in c2pa-rs's key order.
    public var cbor: CBOR {
        var pairs: [(String, CBOR)] = [("exclusions", .array(exclusions.map { e in
            var p: [(String, CBOR)] = [("xpath", .text(e.xpath))]
            if let l = e.length { p.append(("length", .unsigned(l))) }
            if let d = e.data {
                p.append(("data", .array(d.map { .textMap([("offset", .unsigned($0.offset)), ("value", .bytes($0.value))]) })))
            }
            if let s = e.subset {
                p.append(("subset", .array(s.map { .textMap([("offset", .unsigned($0.offset)), ("length", .unsigned($0.length))]) })))
            }
            if let v = e.version { p.append(("version", .unsigned(UInt64(v)))) }
            if let f = e.flags { p.append(("flags", .bytes(f))) }
            if let x = e.exact { p.append(("exact", .bool(x))) }
            return .textMap(p)
        }))]
        if let alg { pairs.append(("alg", .text(alg))) }
        if let hash { pairs.append(("hash", .bytes(hash))) }
        if let merkle { pairs.append(("merkle", merkle)) }
        if let name { pairs.append(("name", .text(name))) }
        return .textMap(pairs)
    }
}
