import Archive
import Crypto
import Custody

/// The trust commands' side of any `TrustAnchorStore`: anchors for a verifier, and changes
/// logged with the custody events `trust add`/`trust remove` have always written
/// (`metadata modification`, one per anchor, in the store's transaction).
extension TrustAnchorStore {
    /// The stored anchors of `role` plus `extra` (e.g. `--trust` for one run).
    public func trustAnchors(_ role: TrustRole, adding extra: [Certificate] = []) throws -> TrustAnchors {
        let stored = try list(role).map(\.certificate)
        let all = stored + extra.filter { !stored.contains($0) }
        return all.isEmpty ? .none : try TrustAnchors(all)
    }

    /// Adds certificates as anchors of `role`, each one added logged in `custody`'s writer
    /// version; returns the fingerprints added (present ones are skipped).
    @discardableResult
    public func add(_ certificates: [Certificate], role: TrustRole, agent: CustodyAgent, custody: any CustodyStore) throws -> [String] {
        var events: [String: CustodyAppend] = [:]
        for cert in certificates {
            events[cert.sha256Fingerprint] = try CustodyAppend(
                CustodyDraft(.metadataModification, agent: agent, objects: [.anchor(cert.sha256Fingerprint)],
                             detail: "trust add \(role.rawValue) anchor: \(cert.subject)"), for: custody)
        }
        return try add(certificates, role: role) { cert in events[cert.sha256Fingerprint, default: Self.unreachable] }
    }

    /// Removes the anchors of `role` with these fingerprints, each one removed logged.
    @discardableResult
    public func remove(fingerprints: [String], role: TrustRole, agent: CustodyAgent, custody: any CustodyStore) throws -> [String] {
        var events: [String: CustodyAppend] = [:]
        for fp in fingerprints {
            events[fp] = try CustodyAppend(CustodyDraft(.metadataModification, agent: agent, objects: [.anchor(fp)],
                                                        detail: "trust remove \(role.rawValue) anchor"), for: custody)
        }
        return try remove(fingerprints: fingerprints, role: role) { fp in events[fp, default: Self.unreachable] }
    }

    /// Never used: every certificate or fingerprint passed has its event built above.
    static var unreachable: CustodyAppend {
        CustodyAppend(objects: []) { _, _ in throw CustodyError.malformedEvent("no custody event was built for this anchor") }
    }
}
