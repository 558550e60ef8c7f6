import Foundation
import Ground

extension Certificate {
    /// Signature algorithms C2PA allows on a certificate (c2pa-rs `check_certificate_profile`).
    static let c2paCertificateSignatureOIDs: Set<String> = [
        "1.2.840.113549.1.1.11", "1.2.840.113549.1.1.12", "1.2.840.113549.1.1.13", // sha{256,384,512}WithRSA
        "1.2.840.10045.4.3.2", "1.2.840.10045.4.3.3", "1.2.840.10045.4.3.4", // ecdsa-with-SHA{256,384,512}
        "1.2.840.113549.1.1.10", // RSASSA-PSS
        "1.3.101.112", // Ed25519
    ]

    /// EKUs that satisfy C2PA's "must carry one of" rule (c2pa-rs `valid_eku_oids.cfg`).
    static let c2paAllowedEKUs: Set<String> = [OID.emailProtection, OID.documentSigning, OID.timeStamping, OID.ocspSigning]

    /// The C2PA certificate-profile rules (C2PA §14.5.1) this certificate breaks as a signer's
    /// end-entity certificate, by name; empty means it conforms.
    ///
    /// Mirrors c2pa-rs `check_end_entity_certificate_profile` (see docs/crypto.md for the exact
    /// list and where we differ). `time` is the signing time (the trusted timestamp's genTime
    /// when there is one, else now); pass nil to skip the validity-window check.
    public func c2paProfileViolations(at time: Date? = Date()) -> [String] {
        var out: [String] = []
        if version != 3 { out.append(StatusCode.versionNotV3) }
        if let time, !isValid(at: time) { out.append(StatusCode.validityNotValidAtSigningTime) }
        if !Certificate.c2paCertificateSignatureOIDs.contains(signatureAlgorithmOID) {
            out.append(StatusCode.signatureAlgorithmUnsupported)
        }
        switch publicKey?.keyType {
        case .ec, .ed25519: break
        case .rsa(let bits) where bits >= 2048: break
        case .rsa: out.append(StatusCode.publicKeyRsaTooShort)
        case .other, nil: out.append(StatusCode.publicKeyUnsupported)
        }
        if isCA && isSelfIssued { out.append(StatusCode.selfSignedCa) }
        if isCA { out.append(StatusCode.basicConstraintsIsCA) }
        if hasUniqueIdentifiers { out.append(StatusCode.uniqueIdentifiersPresent) }
        if !hasAuthorityKeyIdentifier { out.append(StatusCode.authorityKeyIdentifierMissing) }
        if isCA && !hasSubjectKeyIdentifier { out.append(StatusCode.subjectKeyIdentifierMissing) }

        if let ku = keyUsage {
            if ku.contains(.digitalSignature) && ku.contains(.keyCertSign) && !isCA {
                out.append(StatusCode.keyUsageKeyCertSignOnEndEntity)
            }
            if ku.isDisjoint(with: [.digitalSignature, .keyCertSign, .nonRepudiation]) {
                out.append(StatusCode.keyUsageNoSigningBit)
            }
        } else {
            out.append(StatusCode.keyUsageMissing)
        }

        if let ekus = extendedKeyUsageOIDs {
            if ekus.contains(OID.anyExtendedKeyUsage) { out.append(StatusCode.extendedKeyUsageAnyNotAllowed) }
            if ekus.allSatisfy({ !Certificate.c2paAllowedEKUs.contains($0) }) { out.append(StatusCode.extendedKeyUsageNoAllowedPurpose) }
            let ocsp = ekus.contains(OID.ocspSigning), tsa = ekus.contains(OID.timeStamping)
            let others = ekus.contains { $0 != OID.ocspSigning && $0 != OID.timeStamping }
            if (ocsp && tsa) || ((ocsp != tsa) && others) { out.append(StatusCode.extendedKeyUsageInvalidCombination) }
        } else if !isCA {
            out.append(StatusCode.extendedKeyUsageMissing)
        }
        if hasUnhandledCriticalExtension { out.append(StatusCode.extensionsUnhandledCritical) }
        return out
    }
}
