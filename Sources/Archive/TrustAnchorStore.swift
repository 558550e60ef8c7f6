import Crypto
import Ground

/// The archive's own trust setting, wherever it lives: signer and TSA anchor certificates by
/// role and SHA-256 fingerprint. Every change is a custody event committed with it (`logging`
/// builds the event of each anchor actually added or removed). Two implementations: LMDB
/// (`LMDBTrustAnchorStore` in ArchiveLMDB, `trust.anchors`) and PostgreSQL
/// (`PostgresTrustAnchorStore`, `trust_anchors`); one contract suite runs against both.
public protocol TrustAnchorStore: AnyObject, Sendable {
    /// Every stored anchor of `role` (all roles when nil), by role then fingerprint.
    func list(_ role: TrustRole?) throws -> [TrustAnchor]

    /// Adds the certificates as anchors of `role`, skipping those already there, and appends
    /// `logging(certificate)` for each one added, in one transaction. Returns the fingerprints
    /// added.
    @discardableResult
    func add(_ certificates: [Certificate], role: TrustRole, logging: (Certificate) -> CustodyAppend) throws -> [String]

    /// Removes the anchors of `role` with these fingerprints and appends `logging(fingerprint)`
    /// for each one removed, in one transaction. Returns the fingerprints removed.
    @discardableResult
    func remove(fingerprints: [String], role: TrustRole, logging: (String) -> CustodyAppend) throws -> [String]
}

/// Which verification an anchor serves.
public enum TrustRole: String, Sendable, CaseIterable, Codable {
    case signer, tsa
}

/// One stored anchor.
public struct TrustAnchor: Sendable, Equatable {
    public let role: TrustRole
    public let certificate: Certificate
    /// SHA-256 of the certificate DER, lowercase hex.
    public var fingerprint: String { certificate.sha256Fingerprint }

    public init(role: TrustRole, certificate: Certificate) {
        self.role = role
        self.certificate = certificate
    }
}
