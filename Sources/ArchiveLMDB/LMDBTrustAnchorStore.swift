import Archive
import Crypto

/// LMDB's trust anchors as the archive's `TrustAnchorStore`: `TrustStore`'s `trust.anchors`
/// (same keys and bytes), each change and its custody events in one write transaction of the
/// archive environment.
public final class LMDBTrustAnchorStore: TrustAnchorStore {
    public let trust: TrustStore
    public let custody: CustodyLog

    /// Over the trust store and custody log of one archive environment.
    public init(trust: TrustStore, custody: CustodyLog) {
        self.trust = trust
        self.custody = custody
    }

    public func list(_ role: TrustRole?) throws -> [TrustAnchor] { try trust.list(role) }

    @discardableResult
    public func add(_ certificates: [Certificate], role: TrustRole, logging: (Certificate) -> CustodyAppend) throws -> [String] {
        try trust.environment.write { txn in
            try trust.add(certificates, role: role, in: txn) { try custody.append(logging($0), in: txn) }
        }
    }

    @discardableResult
    public func remove(fingerprints: [String], role: TrustRole, logging: (String) -> CustodyAppend) throws -> [String] {
        try trust.environment.write { txn in
            try trust.remove(fingerprints: fingerprints, role: role, in: txn) { try custody.append(logging($0), in: txn) }
        }
    }
}
