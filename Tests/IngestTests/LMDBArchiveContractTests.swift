import Archive
import ArchiveContract
import ArchiveLMDB
import Custody
import Ingest
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

    @Test func writeCommitsTogether() throws { try run { try ArchiveContract.writeCommitsTogether($0) } }
    @Test func readModifyWriteIsSerialised() throws { try run { try ArchiveContract.readModifyWriteIsSerialised($0) } }
    @Test func firstPutsOfANewRecordAreSerialised() throws { try run { try ArchiveContract.firstPutsOfANewRecordAreSerialised($0) } }
    @Test func analysesFilter() throws { try run { try ArchiveContract.analysesFilter($0) } }

    @Test func queryAnswers() throws {
        let lines = try run { try ArchiveContract.queryAnswers($0) }
        #expect(lines.count > 1000)
    }

    @Test func custodyChain() throws { try run { try ArchiveContract.custodyChain($0) } }

    @Test func concurrentAppenders() throws { try run { try ArchiveContract.concurrentAppenders($0) } }

    @Test func trustRoundTrip() throws { try run { try ArchiveContract.trustRoundTrip($0) } }

    @Test func damageIsNamed() throws { try run { try ArchiveContract.damageIsNamed($0) } }
    @Test func auditNamesDamage() throws { try run { try ArchiveContract.auditNamesDamage($0) } }
    @Test func custodyWriteCommitsTogether() throws { try run { try ArchiveContract.custodyWriteCommitsTogether($0) } }

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

/// The façade's protocol views are the archive's own LMDB stores.
@Suite struct ArchiveFacadeStoresTests {
    @Test func viewsWriteTheConcreteStores() throws {
        let f = try LMDBArchiveFixture()
        let r = RecordSamples.record(3, seed: 61)
        let events = try f.archive.records.put(r, custody: [try ArchiveContract.event(naming: r.recordId.hex)])
        #expect(try f.archive.index.get(recordId: r.recordId) == r)
        #expect(try f.archive.custody.events(forObject: r.recordId.hex).map(\.seq) == events.map(\.seq))
        #expect(try f.archive.custodyStore.head().seq == 1)
        #expect(try f.archive.trustAnchors.list(nil) == f.archive.trust.list(nil))
        #expect(try f.archive.custody.verify().isIntact)
    }
}

/// `append(drafts:)` over any store writes the version `CustodyLog.append` would: a v1 writer's
/// log stays v1; otherwise v2, or v3 for an agent that states an organization.
@Suite struct CustodyStoreDraftTests {
    @Test func draftsGetTheLogsVersion() throws {
        let f = try LMDBArchiveFixture()
        let agent = CustodyAgent(operator: "t", tool: .init(name: "exhibit-archive", version: "test"), host: "h")
        var withOrg = agent
        withOrg.organization = "Org"
        let store: any CustodyStore = f.archive.custody
        let events = try store.append(drafts: [CustodyDraft(.ingestion, agent: agent, objects: []),
                                               CustodyDraft(.ingestion, agent: withOrg, objects: [])])
        #expect(events.map(\.version) == [.v2, .v3] && events.map(\.seq) == [1, 2])
        let v1: any CustodyStore = try CustodyLog(environment: f.archive.environment, eventVersion: .v1)
        #expect(try v1.append(drafts: [CustodyDraft(.ingestion, agent: withOrg, objects: [])]).map(\.version) == [.v1])
        #expect(try f.archive.custody.verify().isIntact && f.archive.custody.allEvents() == store.custodyEvents())
    }
}
