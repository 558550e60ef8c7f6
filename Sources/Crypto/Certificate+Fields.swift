import Foundation
import COpenSSL

/// A keyUsage bit (RFC 5280 §4.2.1.3).
public enum KeyUsage: String, Sendable, CaseIterable {
    case digitalSignature, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement,
         keyCertSign, cRLSign, encipherOnly, decipherOnly

    var bit: UInt32 {
        switch self {
        case .digitalSignature: UInt32(KU_DIGITAL_SIGNATURE)
        case .nonRepudiation: UInt32(KU_NON_REPUDIATION)
        case .keyEncipherment: UInt32(KU_KEY_ENCIPHERMENT)
        case .dataEncipherment: UInt32(KU_DATA_ENCIPHERMENT)
        case .keyAgreement: UInt32(KU_KEY_AGREEMENT)
        case .keyCertSign: UInt32(KU_KEY_CERT_SIGN)
        case .cRLSign: UInt32(KU_CRL_SIGN)
        case .encipherOnly: UInt32(KU_ENCIPHER_ONLY)
        case .decipherOnly: UInt32(KU_DECIPHER_ONLY)
        }
    }
}

/// Well-known object identifiers, dotted.
public enum OID {
    public static let emailProtection = "1.3.6.1.5.5.7.3.4"
    public static let documentSigning = "1.3.6.1.5.5.7.3.36"
    public static let timeStamping = "1.3.6.1.5.5.7.3.8"
    public static let ocspSigning = "1.3.6.1.5.5.7.3.9"
    public static let serverAuth = "1.3.6.1.5.5.7.3.1"
    public static let clientAuth = "1.3.6.1.5.5.7.3.2"
    public static let codeSigning = "1.3.6.1.5.5.7.3.3"
    public static let anyExtendedKeyUsage = "2.5.29.37.0"
    public static let sha256 = "2.16.840.1.101.3.4.2.1"
    public static let sha384 = "2.16.840.1.101.3.4.2.2"
    public static let sha512 = "2.16.840.1.101.3.4.2.3"
}

extension DigestAlgorithm {
    /// The algorithm named by a dotted hash OID; nil for others (SHA-1, …).
    public init?(oid: String) {
        switch oid {
        case OID.sha256: self = .sha256
        case OID.sha384: self = .sha384
        case OID.sha512: self = .sha512
        default: return nil
        }
    }

    public var oid: String {
        switch self {
        case .sha256: OID.sha256
        case .sha384: OID.sha384
        case .sha512: OID.sha512
        }
    }
}

extension Certificate {
    /// Subject in RFC 2253 form (`CN=Device 1,O=Example,C=US`).
    public var subject: String { Certificate.rfc2253(X509_get_subject_name(x509)) }
    /// Issuer in RFC 2253 form.
    public var issuer: String { Certificate.rfc2253(X509_get_issuer_name(x509)) }

    public var commonName: String? { Certificate.entry(X509_get_subject_name(x509), NID_commonName) }
    public var organization: String? { Certificate.entry(X509_get_subject_name(x509), NID_organizationName) }
    public var country: String? { Certificate.entry(X509_get_subject_name(x509), NID_countryName) }
    public var issuerCommonName: String? { Certificate.entry(X509_get_issuer_name(x509), NID_commonName) }

    /// Serial number as lowercase hex of its minimal big-endian bytes, two digits per byte
    /// (`"07"`, `"0a0b0c"`, `"2b"`; `"00"` for zero, `"-…"` if negative), as `BN_bn2hex` writes it.
    public var serialNumberHex: String {
        guard let bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x509), nil) else { return "" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { exhibit_OPENSSL_free(hex) }
        return String(cString: hex).lowercased()
    }

    /// X.509 version as written in the certificate (1, 2 or 3).
    public var version: Int { Int(X509_get_version(x509)) + 1 }

    public var notBefore: Date? { Certificate.date(X509_get0_notBefore(x509)) }
    public var notAfter: Date? { Certificate.date(X509_get0_notAfter(x509)) }

    /// Whether `time` lies inside [notBefore, notAfter].
    public func isValid(at time: Date) -> Bool {
        guard let nb = notBefore, let na = notAfter else { return false }
        return nb <= time && time <= na
    }

    /// Issuer name equals subject name.
    public var isSelfIssued: Bool {
        X509_NAME_cmp(X509_get_subject_name(x509), X509_get_issuer_name(x509)) == 0
    }

    /// Self-issued and its signature verifies with its own key.
    public var isSelfSigned: Bool {
        defer { ERR_clear_error() }
        return X509_self_signed(x509, 1) == 1
    }

    private var extensionFlags: UInt32 { X509_get_extension_flags(x509) }

    /// basicConstraints cA = TRUE.
    public var isCA: Bool { extensionFlags & UInt32(EXFLAG_CA) != 0 }

    /// basicConstraints present at all.
    public var hasBasicConstraints: Bool { extensionFlags & UInt32(EXFLAG_BCONS) != 0 }

    /// The keyUsage bits; nil when the extension is absent.
    public var keyUsage: Set<KeyUsage>? {
        guard extensionFlags & UInt32(EXFLAG_KUSAGE) != 0 else { return nil }
        let bits = X509_get_key_usage(x509)
        return Set(KeyUsage.allCases.filter { bits & $0.bit != 0 })
    }

    /// The extendedKeyUsage OIDs, dotted, in certificate order; nil when the extension is absent.
    public var extendedKeyUsageOIDs: [String]? {
        var crit: Int32 = 0
        guard let raw = X509_get_ext_d2i(x509, NID_ext_key_usage, &crit, nil) else { ERR_clear_error(); return nil }
        let sk = OpaquePointer(raw)
        defer { exhibit_sk_ASN1_OBJECT_pop_free(sk) }
        return (0..<exhibit_sk_ASN1_OBJECT_num(sk)).map { dottedOID(exhibit_sk_ASN1_OBJECT_value(sk, $0)) }
    }

    /// Whether the extension with this NID is present and marked critical; nil when absent.
    func isCritical(nid: Int32) -> Bool? {
        let index = X509_get_ext_by_NID(x509, nid, -1)
        guard index >= 0, let ext = X509_get_ext(x509, index) else { return nil }
        return X509_EXTENSION_get_critical(ext) == 1
    }

    public var isKeyUsageCritical: Bool? { isCritical(nid: NID_key_usage) }
    public var isExtendedKeyUsageCritical: Bool? { isCritical(nid: NID_ext_key_usage) }
    public var isBasicConstraintsCritical: Bool? { isCritical(nid: NID_basic_constraints) }

    public var hasAuthorityKeyIdentifier: Bool { isCritical(nid: NID_authority_key_identifier) != nil }
    public var hasSubjectKeyIdentifier: Bool { isCritical(nid: NID_subject_key_identifier) != nil }

    /// A critical extension OpenSSL does not understand is present.
    public var hasUnhandledCriticalExtension: Bool { extensionFlags & UInt32(EXFLAG_CRITICAL) != 0 }

    /// issuerUniqueID or subjectUniqueID is present.
    public var hasUniqueIdentifiers: Bool {
        var iuid: UnsafePointer<ASN1_BIT_STRING>?
        var suid: UnsafePointer<ASN1_BIT_STRING>?
        X509_get0_uids(x509, &iuid, &suid)
        return iuid != nil || suid != nil
    }

    /// The outer signatureAlgorithm OID, dotted (`"1.2.840.10045.4.3.2"` = ecdsa-with-SHA256).
    public var signatureAlgorithmOID: String {
        var alg: UnsafePointer<X509_ALGOR>?
        X509_get0_signature(nil, &alg, x509)
        guard let alg else { return "" }
        var obj: OpaquePointer?
        X509_ALGOR_get0(&obj, nil, nil, alg)
        return dottedOID(obj)
    }

    // MARK: helpers

    static func rfc2253(_ name: OpaquePointer?) -> String {
        guard let name, let bio = try? MemoryBIO() else { return "" }
        guard X509_NAME_print_ex(bio.bio, name, 0, exhibit_XN_FLAG_RFC2253()) >= 0 else { return "" }
        return bio.string()
    }

    static func entry(_ name: OpaquePointer?, _ nid: Int32) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
              let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
        var out: UnsafeMutablePointer<UInt8>?
        let n = ASN1_STRING_to_UTF8(&out, data)
        guard n >= 0, let out else { return nil }
        defer { exhibit_OPENSSL_free(out) }
        return String(decoding: UnsafeBufferPointer(start: out, count: Int(n)), as: UTF8.self)
    }

    static func date(_ t: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let t else { return nil }
        var tm = tm()
        guard ASN1_TIME_to_tm(t, &tm) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm)))
    }
}
