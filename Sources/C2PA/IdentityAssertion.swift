import Ground

/// A CAWG identity assertion (`cawg.identity`, `cawg.identity__N`; Creator Assertions Working
/// Group identity assertion spec):
///
///     { signer_payload: { referenced_assertions: [hashed URI], sig_type: tstr, ? role: [tstr], * },
///       signature: bstr, pad1: bstr, ? pad2: bstr }
///
/// Unknown keys are tolerated (c2pa-rs deserializes with serde, which ignores them), but every
/// known key must have its type. The signature covers `signerPayloadBytes`: the signer payload
/// re-encoded with only its known fields, in the order c2pa-rs serializes them.
public struct IdentityAssertion: Sendable, Equatable {
    public var referencedAssertions: [HashedURI]
    public var sigType: String
    public var roles: [String]
    public var signature: [UInt8]
    public var pad1: [UInt8]
    public var pad2: [UInt8]?

    /// Assertion labels that hold identity assertions.
    public static func isIdentityLabel(_ label: String) -> Bool {
        label == "cawg.identity" || label.hasPrefix("cawg.identity__")
    }

    public init(referencedAssertions: [HashedURI], sigType: String, roles: [String] = [],
                signature: [UInt8], pad1: [UInt8], pad2: [UInt8]? = nil) {
        self.referencedAssertions = referencedAssertions
        self.sigType = sigType
        self.roles = roles
        self.signature = signature
        self.pad1 = pad1
        self.pad2 = pad2
    }

    public init(parsing bytes: some Collection<UInt8>) throws(IdentityAssertionError) {
        let cbor: CBOR
        do { cbor = try CBOR(decoding: Array(bytes)) } catch { throw .cbor(error) }
        guard cbor.mapValue != nil else { throw .notAMap }
        guard let payload = cbor["signer_payload"], payload.mapValue != nil else { throw .missingField("signer_payload") }
        guard let refs = payload["referenced_assertions"]?.arrayValue else { throw .missingField("referenced_assertions") }
        var uris: [HashedURI] = []
        for item in refs {
            guard let uri = HashedURI(cbor: item), Self.wellTyped(hashedURI: item) else { throw .badHashedURI }
            uris.append(uri)
        }
        guard let sigType = payload["sig_type"]?.textValue else { throw .missingField("sig_type") }
        var roles: [String] = []
        if let role = payload["role"] {
            guard let items = role.arrayValue else { throw .badField("role") }
            for item in items {
                guard let text = item.textValue else { throw .badField("role") }
                roles.append(text)
            }
        }
        guard let signature = cbor["signature"]?.bytesValue else { throw .missingField("signature") }
        guard let pad1 = cbor["pad1"]?.bytesValue else { throw .missingField("pad1") }
        var pad2: [UInt8]?
        if let p = cbor["pad2"] {
            guard let b = p.bytesValue else { throw .badField("pad2") }
            pad2 = b
        }
        self.init(referencedAssertions: uris, sigType: sigType, roles: roles, signature: signature, pad1: pad1, pad2: pad2)
    }

    /// `alg`, when present, must be text (HashedURI(cbor:) alone would drop a mistyped one).
    private static func wellTyped(hashedURI item: CBOR) -> Bool {
        if let alg = item["alg"], alg.textValue == nil { return false }
        return true
    }

    /// The detached payload of `signature`: the signer payload with its known fields only.
    public var signerPayloadBytes: [UInt8] { signerPayload.encoded() }

    public var signerPayload: CBOR {
        var pairs: [(String, CBOR)] = [("referenced_assertions", .array(referencedAssertions.map(\.cbor))),
                                       ("sig_type", .text(sigType))]
        if !roles.isEmpty { pairs.append(("role", .array(roles.map(CBOR.text)))) }
        return .textMap(pairs)
    }

    /// The assertion's CBOR (the content of its `cbor` box).
    public func encoded() -> [UInt8] {
        var pairs: [(String, CBOR)] = [("signer_payload", signerPayload), ("signature", .bytes(signature)), ("pad1", .bytes(pad1))]
        if let pad2 { pairs.append(("pad2", .bytes(pad2))) }
        return CBOR.textMap(pairs).encoded()
    }
}

public enum IdentityAssertionError: Error, Equatable, Sendable {
    case cbor(CBORError)
    case notAMap
    case missingField(String)
    case badField(String)
    case badHashedURI

    public var code: String {
        switch self {
        case .cbor(let e): e.code(in: .identity)
        case .notAMap: StatusCode.identityNotAMap
        case .missingField: StatusCode.identityMissingField
        case .badField: StatusCode.identityBadField
        case .badHashedURI: StatusCode.identityBadHashedURI
        }
    }
}
