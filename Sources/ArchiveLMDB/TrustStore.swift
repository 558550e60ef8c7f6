import Archive
import Crypto
import Custody
import Foundation
import LMDB

/// The archive's own trust setting: signer and TSA anchor certificates kept in LMDB
/// (`trust.anchors`: `role 0x00 sha256(DER) hex` → DER). Every change is a custody event
/// (`metadata modification`) committed in the same transaction.
public final class TrustStore: Sendable {
    /// Which verification an anchor serves (the `Archive` target's, shared by every store).
    public typealias Role = TrustRole

    /// One stored anchor.
    public typealias Anchor = TrustAnchor

    public let environment: Environment
    let anchors: Database

    public init(environment: Environment) throws {
        self.environment = environment
        anchors = try environment.openOrCreate("trust.anchors")
    }

    static func key(_ role: Role, _ fingerprint: String) -> [UInt8] { Array(role.rawValue.utf8) + [0] + Array(fingerprint.utf8) }

    /// Every stored anchor of `role` (all roles when nil), by role then fingerprint.
    public func list(_ role: Role? = nil) throws -> [Anchor] {
        try environment.read { txn in try list(role, in: txn) }
    }

    public func list(_ role: Role?, in txn: Transaction) throws -> [Anchor] {
        var out: [Anchor] = []
        for r in Role.allCases where role == nil || role == r {
            var ders: [[UInt8]] = []
            try txn.scan(anchors, prefix: Array(r.rawValue.utf8) + [0]) { _, value in
                ders.append(Array(value))
                return .next
            }
            for der in ders {
                out.append(Anchor(role: r, certificate: try Certificate(der: der)))
            }
        }
        return out
    }

    /// The stored anchors of `role` plus `extra` (e.g. `--trust` for one run).
    public func trustAnchors(_ role: Role, adding extra: [Certificate] = []) throws -> TrustAnchors {
        let stored = try list(role).map(\.certificate)
        let all = stored + extra.filter { !stored.contains($0) }
        return all.isEmpty ? .none : try TrustAnchors(all)
    }

    /// Adds certificates as anchors of `role`; logs one event per anchor actually added.
    /// Returns the fingerprints added (already-present ones are skipped).
    @discardableResult
    public func add(_ certificates: [Certificate], role: Role, agent: CustodyAgent, custody: CustodyLog) throws -> [String] {
        try environment.write { txn in
            try add(certificates, role: role, in: txn) { cert in
                try custody.append(CustodyDraft(.metadataModification, agent: agent, objects: [.anchor(cert.sha256Fingerprint)],
                                                detail: "trust add \(role.rawValue) anchor: \(cert.subject)"), in: txn)
            }
        }
    }

    /// Removes the anchors of `role` with these fingerprints; logs one event per removal.
    @discardableResult
    public func remove(fingerprints: [String], role: Role, agent: CustodyAgent, custody: CustodyLog) throws -> [String] {
        try environment.write { txn in
            try remove(fingerprints: fingerprints, role: role, in: txn) { fp in
                try custody.append(CustodyDraft(.metadataModification, agent: agent, objects: [.anchor(fp)],
                                                detail: "trust remove \(role.rawValue) anchor"), in: txn)
            }
        }
    }

    /// Adds in `txn`, calling `logged` for each anchor actually added (its custody event).
    func add(_ certificates: [Certificate], role: Role, in txn: Transaction, logged: (Certificate) throws -> Void) throws -> [String] {
        var added: [String] = []
        for cert in certificates where try txn.put(anchors, Self.key(role, cert.sha256Fingerprint), cert.der, flags: .noOverwrite) {
            added.append(cert.sha256Fingerprint)
            try logged(cert)
        }
        return added
    }

    /// Removes in `txn`, calling `logged` for each anchor actually removed (its custody event).
    func remove(fingerprints: [String], role: Role, in txn: Transaction, logged: (String) throws -> Void) throws -> [String] {
        var removed: [String] = []
        for fp in fingerprints where try txn.delete(anchors, Self.key(role, fp)) {
            removed.append(fp)
            try logged(fp)
        }
        return removed
    }
}
