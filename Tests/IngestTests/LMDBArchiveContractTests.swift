import ArchiveContract
import Testing

/// The archive contract (Tests/ArchiveContract) on the LMDB stores, a fresh archive directory
/// per test (`LMDBArchiveFixture`).
@Suite struct LMDBArchiveContractTests {
    /// Runs `check` on a fresh fixture's subject, the fixture kept alive until it returns.
    func run<R>(_ check: (ArchiveSubject) throws -> R) throws -> R {
        let f = try LMDBArchiveFixture()
        return try withExtendedLifetime(f) { try check(f.subject) }
    }

    @Test func recordsRoundTrip() throws { try run { try ArchiveContract.recordsRoundTrip($0) } }

    @Test func variants() throws { try run { try ArchiveContract.variants($0) } }

    @Test func queryAnswers() throws {
        let lines = try run { try ArchiveContract.queryAnswers($0) }
        #expect(lines.count > 1000)
    }

    @Test func custodyChain() throws { try run { try ArchiveContract.custodyChain($0) } }

    @Test func concurrentAppenders() throws { try run { try ArchiveContract.concurrentAppenders($0) } }

    @Test func trustRoundTrip() throws { try run { try ArchiveContract.trustRoundTrip($0) } }

    @Test func damageIsNamed() throws { try run { try ArchiveContract.damageIsNamed($0) } }

    /// The stores write what they always wrote: a chain appended through the protocol is the
    /// one `CustodyLog.verify` (`log --verify`) walks, event for event.
    @Test func protocolAppendsAreTheLogsOwnEvents() throws {
        let f = try LMDBArchiveFixture()
        try ArchiveContract.custodyChain(f.subject, total: 50)
        let verification = try f.archive.custody.verify()
        #expect(verification.isIntact && verification.events == 50)
        #expect(try f.archive.custody.allEvents() == f.subject.custody.custodyEvents())
    }
}
