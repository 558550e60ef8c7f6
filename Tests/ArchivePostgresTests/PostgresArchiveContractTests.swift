import Archive
import ArchiveContract
import ArchivePostgres
import Foundation
import Ground
import Ingest
import Postgres
import PostgresTestSupport
import Query
import Testing

/// The archive contract (Tests/ArchiveContract) on the PostgreSQL stores, against the real test
/// server (a migrated schema of its own per test); and the query answers of both stores on the
/// same records, byte for byte as `query --json` prints them.
@Suite struct PostgresArchiveContractTests {
    /// A migrated schema and the three stores on one connection; `another` opens a connection
    /// of its own; damage is written with SQL, as another client of the database could.
    static func subject(_ pg: MigratedSchema) throws -> ArchiveSubject {
        let c = pg.connection
        return ArchiveSubject(
            records: PostgresRecordStore(connection: c), custody: PostgresCustodyStore(connection: c),
            trust: PostgresTrustAnchorStore(connection: c),
            another: {
                let own = try pg.connect()
                return (PostgresRecordStore(connection: own), PostgresCustodyStore(connection: own))
            },
            overwriteReport: { id, bytes in
                let n = try c.write { tx in
                    try tx.execute("UPDATE record_reports SET report = $2 WHERE report_id = $1", [.bytes(id.bytes), .bytes(bytes)]).affected
                }
                guard n == 1 else { throw QueryError.notFound(id.hex) }
            },
            damageBody: { id in
                // One bit of the byte three from the end (inside the JSON), flipped by the server.
                let n = try c.write { tx in
                    try tx.execute("""
                        UPDATE records SET body = set_byte(body, octet_length(body) - 3, get_byte(body, octet_length(body) - 3) # 1)
                        WHERE record_id = $1
                        """, [.bytes(id.bytes)]).affected
                }
                guard n == 1 else { throw QueryError.notFound(id.hex) }
            })
    }

    @Test func recordsRoundTrip() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.recordsRoundTrip(try Self.subject(pg))
    }

    @Test func variants() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.variants(try Self.subject(pg))
    }

    @Test func writeCommitsTogether() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.writeCommitsTogether(try Self.subject(pg))
    }

    @Test func readModifyWriteIsSerialised() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.readModifyWriteIsSerialised(try Self.subject(pg))
    }

    @Test func firstPutsOfANewRecordAreSerialised() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.firstPutsOfANewRecordAreSerialised(try Self.subject(pg))
    }

    @Test func analysesFilter() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.analysesFilter(try Self.subject(pg))
    }

    /// The contract's query answers, and the same lines as LMDB's stores print on the same
    /// records: `query --json` rows and `query --count --json` objects, byte for byte.
    @Test func queryAnswersEqualLMDBsByteForByte() throws {
        let pg = try MigratedSchema()
        let lines = try ArchiveContract.queryAnswers(try Self.subject(pg))
        let lmdb = try LMDBArchiveFixture()
        let reference = try withExtendedLifetime(lmdb) { try ArchiveContract.queryAnswers(lmdb.subject) }
        #expect(lines.count == reference.count && lines.count > 1000)
        for (n, (a, b)) in zip(lines, reference).enumerated() where a != b {
            Issue.record("line \(n): PostgreSQL \(a) LMDB \(b)")
            break
        }
        #expect(lines == reference)
    }

    @Test func custodyChain() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.custodyChain(try Self.subject(pg))
        #expect(try PostgresCustodyStore(connection: pg.connection).brokenLinks() == [])
    }

    /// Two writers, each on a connection of its own: the advisory lock queues them.
    @Test func concurrentAppenders() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.concurrentAppenders(try Self.subject(pg))
        #expect(try PostgresCustodyStore(connection: pg.connection).brokenLinks() == [])
    }

    @Test func trustRoundTrip() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.trustRoundTrip(try Self.subject(pg))
    }

    @Test func damageIsNamed() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.damageIsNamed(try Self.subject(pg))
    }

    @Test func auditNamesDamage() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.auditNamesDamage(try Self.subject(pg))
    }

    @Test func custodyWriteCommitsTogether() throws {
        let pg = try MigratedSchema()
        try ArchiveContract.custodyWriteCommitsTogether(try Self.subject(pg))
    }

    /// A record and its custody events commit together: a put whose event cannot be built
    /// leaves neither the record nor any event.
    @Test func aRecordAndItsEventsCommitTogether() throws {
        let pg = try MigratedSchema()
        let s = try Self.subject(pg)
        let r = RecordSamples.record(5, seed: 51)
        struct Refused: Error {}
        let failing = CustodyAppend(objects: [r.recordId.hex]) { _, _ in throw Refused() }
        #expect(throws: Refused.self) { try s.records.put(r, custody: [try ArchiveContract.event(naming: r.recordId.hex), failing]) }
        #expect(try s.records.get(recordId: r.recordId) == nil)
        #expect(try s.custody.head() == CustodyHead.empty)
        #expect(try s.records.put(r, custody: [try ArchiveContract.event(naming: r.recordId.hex)]).map(\.seq) == [1])
        #expect(try s.records.get(recordId: r.recordId) == r)
    }
}
