import COpenSSL
import Foundation
import Ground

/// Makes real X.509 v3 certificates: roots, intermediates, C2PA signer leaves and TSA leaves.
///
/// Extensions are OpenSSL configuration strings (`keyUsage = "critical,digitalSignature"`), so a
/// test can also build deliberately non-conforming certificates. Serials are whatever the caller
/// gives; the signature is ECDSA/RSA over SHA-256 (pure EdDSA for an Ed25519 issuer key).
public struct CertificateBuilder: Sendable {
    /// One extension as OpenSSL `x509v3_config` text: name (`"keyUsage"`) and value (`"critical,digitalSignature"`).
    public struct Extension: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var commonName: String
    public var organization: String?
    public var country: String?
    public var serial: UInt64
    public var notBefore: Date
    public var notAfter: Date
    public var extensions: [Extension]

    public init(commonName: String, organization: String? = nil, country: String? = nil, serial: UInt64,
                notBefore: Date, notAfter: Date, extensions: [Extension]) {
        self.commonName = commonName
        self.organization = organization
        self.country = country
        self.serial = serial
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.extensions = extensions
    }

    /// A root CA: basicConstraints CA:TRUE critical, keyUsage keyCertSign|cRLSign critical, SKI, AKI.
    public static let rootCAExtensions: [Extension] = [
        .init("basicConstraints", "critical,CA:TRUE"),
        .init("keyUsage", "critical,keyCertSign,cRLSign"),
        .init("subjectKeyIdentifier", "hash"),
        .init("authorityKeyIdentifier", "keyid:always"),
    ]
    /// An intermediate CA (path length 0: it issues leaves only).
    public static let intermediateCAExtensions: [Extension] = [
        .init("basicConstraints", "critical,CA:TRUE,pathlen:0"),
        .init("keyUsage", "critical,keyCertSign,cRLSign"),
        .init("subjectKeyIdentifier", "hash"),
        .init("authorityKeyIdentifier", "keyid:always"),
    ]
    /// A C2PA claim signer (passes c2pa-rs's profile): CA:FALSE, keyUsage digitalSignature
    /// critical, EKU emailProtection + documentSigning, SKI, AKI.
    public static let c2paSignerExtensions: [Extension] = [
        .init("basicConstraints", "critical,CA:FALSE"),
        .init("keyUsage", "critical,digitalSignature"),
        .init("extendedKeyUsage", "emailProtection,1.3.6.1.5.5.7.3.36"),
        .init("subjectKeyIdentifier", "hash"),
        .init("authorityKeyIdentifier", "keyid:always"),
    ]
    /// A time-stamping authority: EKU timeStamping critical (RFC 3161 §2.3), digitalSignature.
    public static let timeStampingExtensions: [Extension] = [
        .init("basicConstraints", "critical,CA:FALSE"),
        .init("keyUsage", "critical,digitalSignature,nonRepudiation"),
        .init("extendedKeyUsage", "critical,timeStamping"),
        .init("subjectKeyIdentifier", "hash"),
        .init("authorityKeyIdentifier", "keyid:always"),
    ]

    /// A certificate for `key` signed by `key` itself (issuer = subject).
    public func selfSigned(key: PrivateKey) throws(CryptoError) -> Certificate {
        try build(subjectKey: key.publicKey, issuer: nil, issuerKey: key)
    }

    /// A certificate for `publicKey` issued by `issuer`, signed with `issuerKey`.
    public func issued(publicKey: PublicKey, issuer: Certificate, issuerKey: PrivateKey) throws(CryptoError) -> Certificate {
        try build(subjectKey: publicKey, issuer: issuer, issuerKey: issuerKey)
    }

    private func build(subjectKey: PublicKey, issuer: Certificate?, issuerKey: PrivateKey) throws(CryptoError) -> Certificate {
        guard let x = X509_new() else { throw CryptoError.openssl(StatusCode.builderAlloc, "X509_new") }
        defer { X509_free(x) }
        guard X509_set_version(x, 2) == 1,
              ASN1_INTEGER_set_uint64(X509_get_serialNumber(x), serial) == 1,
              X509_set_pubkey(x, subjectKey.pkey) == 1 else {
            throw CryptoError.openssl(StatusCode.builderField, "version/serial/pubkey")
        }
        guard ASN1_TIME_set(X509_getm_notBefore(x), time_t(notBefore.timeIntervalSince1970)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(x), time_t(notAfter.timeIntervalSince1970)) != nil else {
            throw CryptoError.openssl(StatusCode.builderValidity, "ASN1_TIME_set")
        }
        guard let name = X509_get_subject_name(x) else { throw CryptoError.openssl(StatusCode.builderName, "X509_get_subject_name") }
        for (field, value) in [("C", country), ("O", organization), ("CN", commonName as String?)] {
            guard let value else { continue }
            let bytes = Array(value.utf8)
            guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1 else {
                throw CryptoError.openssl(StatusCode.builderName, "X509_NAME_add_entry_by_txt(\(field))")
            }
        }
        let issuerName = issuer.map { X509_get_subject_name($0.x509) } ?? name
        guard X509_set_issuer_name(x, issuerName) == 1 else { throw CryptoError.openssl(StatusCode.builderName, "X509_set_issuer_name") }

        guard let v3 = exhibit_X509V3_CTX_new() else { throw CryptoError.openssl(StatusCode.builderAlloc, "X509V3_CTX") }
        defer { exhibit_OPENSSL_free(v3) }
        X509V3_set_ctx(v3, issuer?.x509 ?? x, x, nil, nil, 0)
        if issuer == nil { _ = X509V3_set_issuer_pkey(v3, issuerKey.pkey) }
        // subjectKeyIdentifier first, so a self-signed authorityKeyIdentifier can copy it.
        let ordered = extensions.filter { $0.name == "subjectKeyIdentifier" } + extensions.filter { $0.name != "subjectKeyIdentifier" }
        for ext in ordered {
            guard let made = X509V3_EXT_nconf(nil, v3, ext.name, ext.value) else {
                throw CryptoError.openssl(StatusCode.builderExtension, "\(ext.name) = \(ext.value)")
            }
            defer { X509_EXTENSION_free(made) }
            guard X509_add_ext(x, made, -1) == 1 else { throw CryptoError.openssl(StatusCode.builderExtension, "X509_add_ext(\(ext.name))") }
        }
        let md: OpaquePointer? = issuerKey.keyType == .ed25519 ? nil : EVP_sha256()
        guard X509_sign(x, issuerKey.pkey, md) > 0 else { throw CryptoError.openssl(StatusCode.builderSign, "X509_sign") }
        guard let der = encodeDER({ i2d_X509(x, $0) }) else { throw CryptoError.openssl(StatusCode.builderEncode, "i2d_X509") }
        return try Certificate(der: der)
    }
}
