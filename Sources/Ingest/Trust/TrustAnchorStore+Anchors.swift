import Archive
import Crypto

extension TrustAnchorStore {
    /// The stored anchors of `role` plus `extra` (this run's `--trust` / `--tsa-trust`), as the
    /// verifier takes them: `TrustStore.trustAnchors`' rule over any store (LMDB or PostgreSQL).
    public func trustAnchors(_ role: TrustRole, adding extra: [Certificate] = []) throws -> TrustAnchors {
        let stored = try list(role).map(\.certificate)
        let all = stored + extra.filter { !stored.contains($0) }
        return all.isEmpty ? .none : try TrustAnchors(all)
    }
}
