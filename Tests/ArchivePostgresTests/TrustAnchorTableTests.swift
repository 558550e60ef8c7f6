import ArchivePostgres
import Crypto
import Foundation
import Postgres
import Testing

/// Trust anchors by role and fingerprint, changed in the same transaction as their custody event.
@Suite struct TrustAnchorTableTests {
    let db: MigratedSchema
    init() throws { db = try MigratedSchema() }

    static func anchor(_ n: Int) -> (fingerprint: String, der: [UInt8]) {
        let der = Array("certificate \(n)".utf8)  // the table stores DER bytes opaquely
        return (MessageDigest.sha256(der).map { String(format: "%02x", $0) }.joined(), der)
    }

    @Test func addListRemove() throws {
        let (a, b, c) = (Self.anchor(1), Self.anchor(2), Self.anchor(3))
        try db.connection.write { tx throws in
            #expect(try TrustAnchorTable.add(role: "signer", fingerprint: a.fingerprint, der: a.der, in: tx))
            #expect(try TrustAnchorTable.add(role: "signer", fingerprint: b.fingerprint, der: b.der, in: tx))
            #expect(try TrustAnchorTable.add(role: "tsa", fingerprint: c.fingerprint, der: c.der, in: tx))
            #expect(try !TrustAnchorTable.add(role: "signer", fingerprint: a.fingerprint, der: a.der, in: tx))  // already there
            #expect(try TrustAnchorTable.add(role: "tsa", fingerprint: a.fingerprint, der: a.der, in: tx))  // another role
        }
        try db.connection.read { tx throws in
            let all = try TrustAnchorTable.list(in: tx)
            #expect(all.map(\.role) == ["signer", "signer", "tsa", "tsa"])
            #expect(all.prefix(2).map(\.fingerprint) == [a.fingerprint, b.fingerprint].sorted())
            #expect(try TrustAnchorTable.list(role: "tsa", in: tx).map(\.fingerprint) == [a.fingerprint, c.fingerprint].sorted())
            #expect(try TrustAnchorTable.list(role: "signer", in: tx).first { $0.fingerprint == a.fingerprint }?.der == a.der)
        }
        try db.connection.write { tx throws in
            #expect(try TrustAnchorTable.remove(role: "signer", fingerprint: a.fingerprint, in: tx))
            #expect(try !TrustAnchorTable.remove(role: "signer", fingerprint: a.fingerprint, in: tx))
        }
        #expect(db.psql("SELECT count(*) FROM trust_anchors WHERE role = 'signer'").output == "1")
    }

    /// The database checks the fingerprint is the DER's SHA-256 and the role is one of two.
    @Test func theDatabaseChecksFingerprintAndRole() throws {
        let a = Self.anchor(1), b = Self.anchor(2)
        let wrong = #expect(throws: PostgresError.self) {
            try db.connection.write { tx in _ = try TrustAnchorTable.add(role: "signer", fingerprint: b.fingerprint, der: a.der, in: tx) }
        }
        #expect(wrong?.code == .checkViolation)
        let role = #expect(throws: PostgresError.self) {
            try db.connection.write { tx in _ = try TrustAnchorTable.add(role: "root", fingerprint: a.fingerprint, der: a.der, in: tx) }
        }
        #expect(role?.code == .checkViolation)
    }

    /// An anchor and its custody event commit or roll back together.
    @Test func theAnchorAndItsEventAreOneTransaction() throws {
        struct Abort: Error {}
        let a = Self.anchor(1)
        let event = CustodyChainTests.event("metadata modification")
        #expect(throws: Abort.self) {
            try db.connection.write { tx throws in
                _ = try TrustAnchorTable.add(role: "signer", fingerprint: a.fingerprint, der: a.der, in: tx)
                _ = try CustodyChain.append(objects: [a.fingerprint], in: tx, event)
                throw Abort()
            }
        }
        #expect(db.psql("SELECT (SELECT count(*) FROM trust_anchors) || ',' || (SELECT count(*) FROM custody_events)").output == "0,0")
        try db.connection.write { tx throws in
            _ = try TrustAnchorTable.add(role: "signer", fingerprint: a.fingerprint, der: a.der, in: tx)
            _ = try CustodyChain.append(objects: [a.fingerprint], in: tx, event)
        }
        #expect(db.psql("SELECT (SELECT count(*) FROM trust_anchors) || ',' || (SELECT count(*) FROM custody_objects WHERE object_id = '\(a.fingerprint)')").output == "1,1")
    }
}
