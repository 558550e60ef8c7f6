import COpenSSL

/// A COSE signature algorithm that C2PA allows (C2PA §13.2, RFC 9053 identifiers).
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
    case es256, es384, es512, ps256, ps384, ps512, ed25519

    /// The COSE `alg` header value.
    public var coseIdentifier: Int {
        switch self {
        case .es256: -7
        case .es384: -35
        case .es512: -36
        case .ps256: -37
        case .ps384: -38
        case .ps512: -39
        case .ed25519: -8
        }
    }

    public init?(coseIdentifier: Int) {
        guard let match = SignatureAlgorithm.allCases.first(where: { $0.coseIdentifier == coseIdentifier }) else { return nil }
        self = match
    }

    /// The hash the algorithm signs with; nil for Ed25519 (pure EdDSA hashes internally).
    public var digest: DigestAlgorithm? {
        switch self {
        case .es256, .ps256: .sha256
        case .es384, .ps384: .sha384
        case .es512, .ps512: .sha512
        case .ed25519: nil
        }
    }

    /// The curve an ECDSA algorithm requires (ES256 ↔ P-256 …); nil otherwise.
    public var requiredCurve: KeyType.Curve? {
        switch self {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        default: nil
        }
    }

    var isECDSA: Bool { requiredCurve != nil }
    var isPSS: Bool { self == .ps256 || self == .ps384 || self == .ps512 }
}

/// What kind of public key a certificate or key holds.
public enum KeyType: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A NIST prime curve.
    public enum Curve: String, Sendable, CaseIterable {
        case p256 = "P-256", p384 = "P-384", p521 = "P-521"

        /// Bytes in one coordinate / one of r, s.
        public var fieldBytes: Int {
            switch self {
            case .p256: 32
            case .p384: 48
            case .p521: 66
            }
        }

        /// OpenSSL group name.
        var groupName: String {
            switch self {
            case .p256: "prime256v1"
            case .p384: "secp384r1"
            case .p521: "secp521r1"
            }
        }

        init?(groupName: String) {
            switch groupName {
            case "prime256v1", "P-256", "secp256r1": self = .p256
            case "secp384r1", "P-384": self = .p384
            case "secp521r1", "P-521": self = .p521
            default: return nil
            }
        }
    }

    case ec(Curve)
    case rsa(bits: Int)
    case ed25519
    /// A key OpenSSL can load that C2PA does not allow (another curve, Ed448, DSA…), by OpenSSL's name.
    case other(String)

    public var description: String {
        switch self {
        case .ec(let c): "EC \(c.rawValue)"
        case .rsa(let bits): "RSA-\(bits)"
        case .ed25519: "Ed25519"
        case .other(let name): name
        }
    }

    /// Whether `algorithm` can be used with this key (curve matches, RSA ≥ 2048 for PS*).
    public func supports(_ algorithm: SignatureAlgorithm) -> Bool {
        switch (self, algorithm) {
        case (.ec(let c), _): algorithm.requiredCurve == c
        case (.rsa(let bits), .ps256), (.rsa(let bits), .ps384), (.rsa(let bits), .ps512): bits >= 2048
        case (.ed25519, .ed25519): true
        default: false
        }
    }
}

/// What `PrivateKey.generate` can make.
public enum KeyKind: Sendable, Equatable {
    case ec(KeyType.Curve)
    case rsa(bits: Int)
    case ed25519

    public static let p256 = KeyKind.ec(.p256)
    public static let p384 = KeyKind.ec(.p384)
    public static let p521 = KeyKind.ec(.p521)
    public static let rsa2048 = KeyKind.rsa(bits: 2048)
}
