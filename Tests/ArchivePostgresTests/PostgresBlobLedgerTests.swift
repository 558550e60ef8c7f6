import Archive
import ArchivePostgres
import Foundation
import Ground
import PostgresTestSupport
import Testing
@testable import Postgres

/// The S3 blob ledger in PostgreSQL (migration 7): two ledgers on connections of their own
/// stand for two machines of one archive.
@Suite struct PostgresBlobLedgerTests {
    let test: TestSchema
    init() throws {
        test = try TestSchema()
        try ArchiveSchema(namespace: test.name).migrate(try test.connect())
    }

    func ledger(lifetime: TimeInterval = 3600, holder: String? = nil) throws -> PostgresBlobLedger {
        try PostgresBlobLedger(connection: test.connect(), lifetime: lifetime, holder: holder)
    }

    func marks() throws -> [String] {
        try test.connect().execute("SELECT holder FROM blob_pending ORDER BY holder").map { try $0.decode(0, as: String.self) }
    }

    static func id(_ text: String) -> ContentID { ContentID.sha256(of: Array(text.utf8)) }

    @Test func oneLedgerForEveryMachine() throws {
        let a = try ledger(), b = try ledger()
        let x = Self.id("x"), y = Self.id("y"), z = Self.id("z")
        try a.markStaging()
        try b.markStaging()
        #expect(try a.record([(x, 10), (y, 20), (x, 10)]) == [true, true, false])
        #expect(try b.record([(y, 20), (z, 30)]) == [false, true])
        #expect(try b.record([]) == [])
        for l in [a, b] {
            #expect(try l.recorded(x) == 10 && l.recorded(z) == 30 && l.recorded(Self.id("w")) == nil)
            let entries = try l.entries()
            #expect(entries.map(\.0) == [x, y, z].sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) })
            #expect(entries.map(\.1).reduce(0, +) == 60)
            #expect(try l.totals() == (3, 60))
        }
        #expect(try a.remove(z))
        #expect(try !b.remove(z))
        #expect(try b.totals() == (2, 30))
    }

    @Test func aLiveMarkKeepsTheSweepAwayUntilItExpires() throws {
        let stager = try ledger(lifetime: 1, holder: "stager:1:00")
        let sweeper = try ledger(holder: "sweeper:2:00")
        try stager.markStaging()
        #expect(try marks() == ["stager:1:00"])
        var swept = 0
        let busy = try sweeper.sweeping { swept += 1 }
        #expect(busy.result == nil && busy.marksCleared == 0 && swept == 0)
        // Its own mark never keeps a process's sweep away.
        #expect(try stager.sweeping { 1 }.result == 1)
        Thread.sleep(forTimeInterval: 1.5)  // the stager died without renewing: its mark expires
        let done = try sweeper.sweeping { swept += 1 }
        #expect(done.result != nil && done.marksCleared == 1 && swept == 1)
        #expect(try marks() == [])
    }

    @Test func aMarkEndsWithItsProcessAndIsRenewed() throws {
        do {
            let stager = try ledger(lifetime: 4, holder: "short:1:00")
            try stager.markStaging()
            let first = try test.connect().execute("SELECT expires FROM blob_pending").single()?.decode(0, as: Date.self)
            Thread.sleep(forTimeInterval: 1.2)  // more than a quarter of the lifetime
            try stager.markStaging()
            let renewed = try test.connect().execute("SELECT expires FROM blob_pending").single()?.decode(0, as: Date.self)
            #expect(try #require(renewed) > #require(first))
        }
        #expect(try marks() == [], "the mark is deleted when its ledger is released")
    }

    /// A process cannot mark itself (and so start uploading) while another one sweeps.
    @Test func aMarkWaitsForTheSweep() throws {
        let stager = try ledger(holder: "late:1:00")
        let sweeper = try ledger(holder: "sweeper:2:00")
        let marked = DispatchSemaphore(value: 0)
        var duringSweep: [String] = []
        _ = try sweeper.sweeping {
            Thread { try? stager.markStaging(); marked.signal() }.start()
            #expect(marked.wait(timeout: .now() + 1) == .timedOut, "markStaging waits for the sweep's lock")
            duringSweep = (try? marks()) ?? ["?"]
        }
        #expect(marked.wait(timeout: .now() + 10) == .success)
        #expect(duringSweep == [])
        #expect(try marks() == ["late:1:00"])
    }
}

extension PostgresBlobLedgerTests {
    /// A process whose mark expired (and was cleared by a sweep) while it staged never lists
    /// the batch — its objects may be gone — and the next batch, staged under a new mark, is listed.
    @Test func aBatchStagedUnderALostMarkIsNotListed() throws {
        let stager = try ledger(lifetime: 1, holder: "slow:1:00")
        let sweeper = try ledger(holder: "sweeper:2:00")
        try stager.markStaging()
        Thread.sleep(forTimeInterval: 1.3)
        #expect(try sweeper.sweeping { 0 }.marksCleared == 1)
        try stager.markStaging()  // found gone: written anew, the loss remembered
        #expect(try marks() == ["slow:1:00"])
        #expect(throws: ArchivePostgresError.blobMarkLost(holder: "slow:1:00")) { try stager.record([(Self.id("a"), 1)]) }
        #expect(try sweeper.totals() == (0, 0))
        #expect(try marks() == [])
        try stager.markStaging()
        #expect(try stager.record([(Self.id("b"), 2)]) == [true])
        #expect(try sweeper.totals() == (1, 2))
        // Never marked at all: nothing is listed either.
        #expect(throws: ArchivePostgresError.blobMarkLost(holder: "unmarked:3:00")) {
            try ledger(holder: "unmarked:3:00").record([(Self.id("c"), 3)])
        }
        #expect(ArchivePostgresError.blobMarkLost(holder: "h").code == "archive.blobs.markLost")
    }
}

extension PostgresBlobLedgerTests {
    /// A process idle past its mark's lifetime after listing everything it staged lost nothing:
    /// its next batch, under a new mark, is listed.
    @Test func anIdleProcessMarksAnew() throws {
        let worker = try ledger(lifetime: 1, holder: "idle:1:00")
        let sweeper = try ledger(holder: "sweeper:2:00")
        try worker.markStaging()
        #expect(try worker.record([(Self.id("first"), 1)]) == [true])
        Thread.sleep(forTimeInterval: 1.3)
        #expect(try sweeper.sweeping { 0 }.marksCleared == 1)
        try worker.markStaging()
        #expect(try worker.record([(Self.id("second"), 2)]) == [true])
        #expect(try sweeper.totals() == (2, 3))
    }
}
