/// A hashed URI: `{ url: tstr, ? alg: tstr, hash: bstr }`. The hash covers the referenced
/// superbox's payload (`JUMBFBox.hashedBytes`).
public struct HashedURI: Sendable, Equatable, Codable {
    public var url: String
    public var alg: String?
    public var hash: [UInt8]

    public init(url: String, alg: String? = nil, hash: [UInt8]) {
        self.url = url
        self.alg = alg
        self.hash = hash
    }

    public init?(cbor: CBOR) {
        guard let url = cbor["url"]?.textValue, let hash = cbor["hash"]?.bytesValue else { return nil }
        self.url = url
        self.alg = cbor["alg"]?.textValue
        self.hash = hash
    }

    public var cbor: CBOR {
        var pairs: [(String, CBOR)] = [("url", .text(url))]
        if let alg { pairs.append(("alg", .text(alg))) }
        pairs.append(("hash", .bytes(hash)))
        return .textMap(pairs)
    }
}
