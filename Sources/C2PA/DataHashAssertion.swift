import Crypto
import Ground

/// `c2pa.hash.data`: a hash of the asset's bytes minus exclusion ranges.
///
///     { exclusions: [* { start: uint, length: uint }], ? name: tstr, alg: tstr, hash: bstr, pad: bstr, ? pad2 }
public struct DataHashAssertion: Sendable, Equatable {
    public struct Exclusion: Sendable, Equatable, Codable {
        public var start: UInt64
        public var length: UInt64
        public init(start: UInt64, length: UInt64) {
            self.start = start
            self.length = length
        }
    }

    public var exclusions: [Exclusion]
    public var name: String?
    public var alg: String?
    public var hash: [UInt8]
    public var pad: [UInt8]

    public static let label = "c2pa.hash.data"

    public init(exclusions: [Exclusion], name: String? = "jumbf manifest", alg: String? = "sha256",
                hash: [UInt8], pad: [UInt8] = []) {
        self.exclusions = exclusions
        self.name = name
        self.alg = alg
        self.hash = hash
        self.pad = pad
    }

    public init(cbor c: CBOR) throws(HashAssertionError) {
        guard c.mapValue != nil else { throw .notAMap }
        guard let hash = c["hash"]?.bytesValue else { throw .missingField("hash") }
        var ex: [Exclusion] = []
        if let e = c["exclusions"] {
            guard let a = e.arrayValue else { throw .badField("exclusions") }
            for item in a {
                guard let s = item["start"]?.intValue, s >= 0, let l = item["length"]?.intValue, l >= 0 else {
                    throw .badField("exclusions")
                }
                ex.append(Exclusion(start: UInt64(s), length: UInt64(l)))
            }
        }
        self.exclusions = ex
        self.name = c["name"]?.textValue
        self.alg = c["alg"]?.textValue
        self.hash = hash
        self.pad = c["pad"]?.bytesValue ?? []
    }

    /// The assertion CBOR in c2pa-rs's key order.
    public var cbor: CBOR {
        var pairs: [(String, CBOR)] = [
            ("exclusions", .array(exclusions.map {
                .textMap([("start", .unsigned($0.start)), ("length", .unsigned($0.length))])
            })),
        ]
        if let name { pairs.append(("name", .text(name))) }
        if let alg { pairs.append(("alg", .text(alg))) }
        pairs.append(("hash", .bytes(hash)))
        pairs.append(("pad", .bytes(pad)))
        return .textMap(pairs)
    }

    /// The hash of `source` minus the exclusions, streamed in 1 MiB reads.
    public func computeHash(over source: some ByteSource, algorithm: DigestAlgorithm) throws(HashAssertionError) -> [UInt8] {
        try RangeHasher.hash(source, excluding: exclusions.map { ($0.start, $0.length) }, markers: [], algorithm: algorithm)
    }
}

/// Why a hash assertion could not be read or computed. `code` is stable.
public enum HashAssertionError: Error, Equatable, Sendable {
    case notAMap
    case missingField(String)
    case badField(String)
    case unsupportedAlgorithm(String)
    case exclusionOutOfRange
    case merkleNotSupported
    case container(ContainerError)
    case io(ByteSourceError)

    public var code: String {
        switch self {
        case .notAMap: StatusCode.hashNotAMap
        case .missingField: StatusCode.hashMissingField
        case .badField: StatusCode.hashBadField
        case .unsupportedAlgorithm: StatusCode.hashUnsupportedAlgorithm
        case .exclusionOutOfRange: StatusCode.hashExclusionOutOfRange
        case .merkleNotSupported: StatusCode.hashMerkleNotSupported
        case .container(let e): e.code
        case .io(let e): e.code
        }
    }
}
