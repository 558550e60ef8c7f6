/// Builds a v1 claim (`c2pa.claim`, C2PA 1.x) in the key order c2pa-rs 0.x wrote it, so tests
/// can reproduce files of that era (v1 claims, `sigTst` timestamps over the claim):
///
///     { dc:title?, dc:format, instanceID, claim_generator, signature, assertions: [+ hashed-uri], alg }
public struct ClaimV1Builder: Sendable {
    public var instanceID: String
    public var claimGenerator: String
    public var format: String
    public var signature: String
    public var assertions: [HashedURI]
    public var title: String?
    public var alg: String? = "sha256"

    public init(instanceID: String, claimGenerator: String, format: String, manifestLabel: String, assertions: [HashedURI]) {
        self.instanceID = instanceID
        self.claimGenerator = claimGenerator
        self.format = format
        self.signature = JUMBFURI.absolute(manifest: manifestLabel, path: "c2pa.signature")
        self.assertions = assertions
    }

    public var cbor: CBOR {
        var pairs: [(String, CBOR)] = []
        if let title { pairs.append(("dc:title", .text(title))) }
        pairs += [
            ("dc:format", .text(format)),
            ("instanceID", .text(instanceID)),
            ("claim_generator", .text(claimGenerator)),
            ("signature", .text(signature)),
            ("assertions", .array(assertions.map(\.cbor))),
        ]
        if let alg { pairs.append(("alg", .text(alg))) }
        return .textMap(pairs)
    }

    public func encoded() -> [UInt8] { cbor.encoded() }
}
