import Archive
import Crypto
import Ground
import Postgres

/// The archive's trust anchors in PostgreSQL, as a `TrustAnchorStore`: `TrustAnchorTable`
/// (the database checks each fingerprint is its DER's SHA-256), each change with its custody
/// events (`CustodyChain`) in one transaction on `connection`.
public final class PostgresTrustAnchorStore: TrustAnchorStore {
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    public func list(_ role: TrustRole?) throws -> [TrustAnchor] {
        try connection.read { tx in try TrustAnchorTable.list(role: role?.rawValue, in: tx) }.map { row in
            guard let role = TrustRole(rawValue: row.role) else { throw ArchivePostgresError.damagedRow("trust anchor role '\(row.role)'") }
            let certificate = try Certificate(der: row.der)
            guard certificate.sha256Fingerprint == row.fingerprint else {
                throw ArchivePostgresError.damagedRow("trust anchor \(row.fingerprint) holds another certificate")
            }
            return TrustAnchor(role: role, certificate: certificate)
        }
    }

    @discardableResult
    public func add(_ certificates: [Certificate], role: TrustRole, logging: (Certificate) -> CustodyAppend) throws -> [String] {
        try connection.write { tx in
            var added: [String] = []
            for cert in certificates
            where try TrustAnchorTable.add(role: role.rawValue, fingerprint: cert.sha256Fingerprint, der: cert.der, in: tx) {
                added.append(cert.sha256Fingerprint)
                try PostgresCustodyStore.append(logging(cert), in: tx)
            }
            return added
        }
    }

    @discardableResult
    public func remove(fingerprints: [String], role: TrustRole, logging: (String) -> CustodyAppend) throws -> [String] {
        try connection.write { tx in
            var removed: [String] = []
            for fp in fingerprints where try TrustAnchorTable.remove(role: role.rawValue, fingerprint: fp, in: tx) {
                removed.append(fp)
                try PostgresCustodyStore.append(logging(fp), in: tx)
            }
            return removed
        }
    }
}
