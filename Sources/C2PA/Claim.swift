import Ground

/// A C2PA claim: v1 (`c2pa.claim`) or v2 (`c2pa.claim.v2`), read from its CBOR bytes.
///
///     claim-v1 = { claim_generator, ? claim_generator_info: [+ map], signature: jumbf-uri,
///                  assertions: [+ hashed-uri], dc:format, instanceID, ? redacted_assertions, ? alg, … }
///     claim-v2 = { instanceID, claim_generator_info: map, signature, created_assertions: [+ hashed-uri],
///                  ? gathered_assertions: [* hashed-uri], ? redacted_assertions: [* jumbf-uri], ? alg, … }
public struct Claim: Sendable {
    public let version: Int
    public let cbor: CBOR
    public let instanceID: String?
    public let claimGenerator: String?
    public let claimGeneratorInfo: CBOR?
    public let signature: String
    public let createdAssertions: [HashedURI]
    public let gatheredAssertions: [HashedURI]
    public let redactedAssertions: [String]
    /// The claim's default hash algorithm (`alg`), used when a hashed URI has none.
    public let alg: String?
    public let title: String?

    /// The claim versions this reader knows (c2pa-rs `BUILD_VER_SUPPORT`).
    public static let supportedVersion = 2

    /// `label` is the claim box's JUMBF label. As in c2pa-rs (store.rs `from_jumbf`, claim.rs
    /// `from_value`) the box is found by its type UUID (`c2cl`), and the label only bounds the
    /// version: its `.vN` suffix (`Claim.labelVersion`, 1 when none) must be at most
    /// `supportedVersion`, else `unknownLabel` (c2pa-rs `ClaimVersionTooNew`). The version is the
    /// CBOR's: `assertions` alone is v1, `created_assertions` alone v2, both `unsupportedVersion`
    /// (c2pa-rs "unsupported claim version"), neither `missingField("created_assertions")`.
    /// A label other than `c2pa.claim`/`c2pa.claim.v2` is reported by the validator, not here.
    public init(label: String, bytes: some Collection<UInt8>) throws(ClaimError) {
        let c: CBOR
        do { c = try CBOR(decoding: bytes) } catch { throw .cbor(error) }
        guard c.mapValue != nil else { throw .notAMap }
        guard Claim.labelVersion(label) <= Claim.supportedVersion else { throw .unknownLabel(label) }
        switch (c["assertions"] != nil, c["created_assertions"] != nil) {
        case (true, false): version = 1
        case (false, true): version = 2
        case (true, true): throw .unsupportedVersion
        case (false, false): throw .missingField("created_assertions")
        }
        cbor = c
        instanceID = c["instanceID"]?.textValue
        claimGenerator = c["claim_generator"]?.textValue
        claimGeneratorInfo = c["claim_generator_info"]
        guard let sig = c["signature"]?.textValue else { throw .missingField("signature") }
        signature = sig
        func uris(_ key: String) throws(ClaimError) -> [HashedURI] {
            guard let v = c[key] else { return [] }
            guard let a = v.arrayValue else { throw .badField(key) }
            var out: [HashedURI] = []
            for item in a {
                guard let u = HashedURI(cbor: item) else { throw .badField(key) }
                out.append(u)
            }
            return out
        }
        if version == 1 {
            createdAssertions = try uris("assertions")
            gatheredAssertions = []
        } else {
            createdAssertions = try uris("created_assertions")
            gatheredAssertions = try uris("gathered_assertions")
        }
        if let r = c["redacted_assertions"] {
            guard let a = r.arrayValue else { throw .badField("redacted_assertions") }
            redactedAssertions = a.compactMap(\.textValue)
        } else {
            redactedAssertions = []
        }
        alg = c["alg"]?.textValue
        title = c["dc:title"]?.textValue
    }

    /// Every assertion the claim references by hashed URI (created, then gathered).
    public var assertionReferences: [HashedURI] { createdAssertions + gatheredAssertions }
}

/// Why a claim could not be read. `code` is stable.
public enum ClaimError: Error, Equatable, Sendable {
    case cbor(CBORError)
    case notAMap
    case unknownLabel(String)
    case missingField(String)
    case badField(String)
    /// Both `assertions` (v1) and `created_assertions` (v2): no one version.
    case unsupportedVersion

    public var code: String {
        switch self {
        case .cbor(let e): e.code
        case .notAMap: StatusCode.claimNotAMap
        case .unknownLabel: StatusCode.claimUnknownLabel
        case .missingField: StatusCode.claimMissingField
        case .badField: StatusCode.claimBadField
        case .unsupportedVersion: StatusCode.claimUnsupportedVersion
        }
    }
}

/// Builds a v2 claim (`c2pa.claim.v2`) in the key order c2pa-rs writes.
public struct ClaimV2Builder: Sendable {
    public var instanceID: String
    public var generatorName: String
    public var generatorVersion: String?
    public var signature: String
    public var createdAssertions: [HashedURI]
    public var gatheredAssertions: [HashedURI] = []
    public var title: String?
    /// The claim's hash algorithm; nil leaves the field out (c2pa-rs then refuses the store).
    public var alg: String? = "sha256"

    public init(instanceID: String, generatorName: String, generatorVersion: String? = nil, manifestLabel: String,
                createdAssertions: [HashedURI]) {
        self.instanceID = instanceID
        self.generatorName = generatorName
        self.generatorVersion = generatorVersion
        self.signature = JUMBFURI.absolute(manifest: manifestLabel, path: "c2pa.signature")
        self.createdAssertions = createdAssertions
    }

    public var cbor: CBOR {
        var info: [(String, CBOR)] = [("name", .text(generatorName))]
        if let generatorVersion { info.append(("version", .text(generatorVersion))) }
        var pairs: [(String, CBOR)] = [
            ("instanceID", .text(instanceID)),
            ("claim_generator_info", .textMap(info)),
            ("signature", .text(signature)),
            ("created_assertions", .array(createdAssertions.map(\.cbor))),
        ]
        if !gatheredAssertions.isEmpty { pairs.append(("gathered_assertions", .array(gatheredAssertions.map(\.cbor)))) }
        if let title { pairs.append(("dc:title", .text(title))) }
        if let alg { pairs.append(("alg", .text(alg))) }
        return .textMap(pairs)
    }

    public func encoded() -> [UInt8] { cbor.encoded() }
}
