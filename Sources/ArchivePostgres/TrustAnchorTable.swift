import Postgres

/// The SQL of the trust anchors (migration 3): certificates (DER) by role (`signer`, `tsa`) and
/// SHA-256 fingerprint, which the database checks is the DER's own. Each change goes in the
/// caller's transaction with its custody event (`metadata modification`), as in LMDB.
public enum TrustAnchorTable {
    public struct Anchor: Sendable, Equatable {
        public let role: String
        /// SHA-256 of `der`, lowercase hex.
        public let fingerprint: String
        public let der: [UInt8]
    }

    /// Adds the anchor unless it is there; true when it was added (then log the event).
    public static func add(role: String, fingerprint: String, der: [UInt8], in tx: Transaction) throws -> Bool {
        try tx.execute("""
            INSERT INTO trust_anchors (role, fingerprint, der) VALUES ($1, $2, $3)
            ON CONFLICT (role, fingerprint) DO NOTHING
            """, [.text(role), .text(fingerprint), .bytes(der)]).affected == 1
    }

    /// Removes the anchor; true when it was there.
    public static func remove(role: String, fingerprint: String, in tx: Transaction) throws -> Bool {
        try tx.execute("DELETE FROM trust_anchors WHERE role = $1 AND fingerprint = $2",
                       [.text(role), .text(fingerprint)]).affected == 1
    }

    /// Every anchor of `role` (all when nil), by role then fingerprint (LMDB's key order).
    public static func list(role: String? = nil, in tx: Transaction) throws -> [Anchor] {
        try tx.execute("""
            SELECT role, fingerprint, der FROM trust_anchors WHERE $1::text IS NULL OR role = $1 ORDER BY role, fingerprint
            """, [role.map(SQLValue.text) ?? .null]).map { row in
            Anchor(role: try row.decode(0), fingerprint: try row.decode(1), der: try row.decode(2))
        }
    }
}
