import Crypto
import Foundation
import Ground

/// A certificate from an x5chain with everything the validator derives from it, parsed once
/// per distinct DER: OpenSSL 3 decodes public keys through its decoder framework, which costs
/// far more than the signature check itself, and a batch from one device repeats its chain.
final class ParsedCertificate: Sendable {
    let certificate: Certificate
    let publicKey: PublicKey?
    let keyFingerprint: ContentID
    let sha256Fingerprint: String
    let subject: String
    let issuer: String
    /// The C2PA profile check without a time (the validity window is checked per file).
    let profileViolations: [String]
    let window: ValidityWindow

    init(_ c: Certificate) {
        certificate = c
        publicKey = c.publicKey
        keyFingerprint = c.keyFingerprint
        sha256Fingerprint = c.sha256Fingerprint
        subject = c.subject
        issuer = c.issuer
        profileViolations = c.c2paProfileViolations(at: nil)
        window = ValidityWindow(c)
    }
}

extension C2PAValidator {
    /// The parsed certificate for `der`, from the cache when seen before; nil when it does not parse.
    func parsedCertificate(_ der: [UInt8]) -> ParsedCertificate? {
        if let hit = certificateCache.withLock({ $0[der] }) { return hit }
        guard let c = try? Certificate(der: der) else { return nil }
        let parsed = ParsedCertificate(c)
        certificateCache.withLock {
            if $0.count >= 1024 { $0.removeAll() }
            $0[der] = parsed
        }
        return parsed
    }
}
