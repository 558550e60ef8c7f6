import Archive
@testable import ArchiveLMDB
@testable import Custody
import Foundation
import Ground
import Testing

/// Custody events made ahead of the write transaction (`CustodyAppend.carried`, ingest's drafter,
/// docs/ingest.md "Session 10"): appended at the head they were made for, they are the bytes the
/// store would have made; when another append moved the head first, they are re-made for the
/// real head and the chain stays whole.
@Suite struct CarriedCustodyTests {
    static func draft(_ i: Int) -> CustodyDraft {
        CustodyDraft(.ingestion, agent: CustodyLogV2Tests.agent, objects: [.init(kind: "record", id: "r\(i)")], detail: "event \(i)",
                     time: Date(timeIntervalSince1970: Double(i)))
    }

    /// Carries `drafts` from `head`, counting mismatches.
    static func carry(_ drafts: [CustodyDraft], after head: CustodyHead, in log: CustodyLog,
                      mismatches: Locked<Int>) throws -> (appends: [CustodyAppend], head: CustodyHead) {
        var h = head
        let appends = try log.appends(drafts).map { a in
            let (c, next) = try a.carried(after: h) { mismatches.withLock { $0 += 1 } }
            h = next
            return c
        }
        return (appends, h)
    }

    @Test func madeAheadForTheHeadTheyFindAreStoredAsMade() throws {
        let log = try CustodyLog(environment: try CustodyLogV2Tests.environment())
        defer { try? FileManager.default.removeItem(atPath: log.environment.path) }
        try CustodyLogV2Tests.append(log, 1...2)
        let mismatches = Locked(0)
        let (appends, predicted) = try Self.carry((3...5).map(Self.draft), after: try log.head(), in: log, mismatches: mismatches)
        let stored = try log.append(appends)
        #expect(mismatches.withLock { $0 } == 0)
        #expect(stored.map(\.seq) == [3, 4, 5])
        #expect(try log.head() == predicted, "the head after them is the one the drafter carried on")
        #expect(try log.verify().problems.isEmpty)
    }

    @Test func madeForAHeadThatMovedAreRemadeForTheRealOne() throws {
        let log = try CustodyLog(environment: try CustodyLogV2Tests.environment())
        defer { try? FileManager.default.removeItem(atPath: log.environment.path) }
        try CustodyLogV2Tests.append(log, 1...2)
        let mismatches = Locked(0)
        let (appends, predicted) = try Self.carry((3...4).map(Self.draft), after: try log.head(), in: log, mismatches: mismatches)
        // Another writer appends first: the carried events meet seq 4 and event 3's hash instead.
        try CustodyLogV2Tests.append(log, 10...10)
        let stored = try log.append(appends)
        #expect(mismatches.withLock { $0 } == 2, "both re-made")
        #expect(stored.map(\.seq) == [4, 5])
        #expect(try log.head() != predicted)
        #expect(try log.verify().problems.isEmpty, "the chain is whole")
        let events = try log.custodyEvents()
        #expect(events.map(\.outcomeDetail) == ["event 1", "event 2", "event 10", "event 3", "event 4"])
        // The same time as drafted: only the chain fields (and the hash) changed.
        #expect(events[3].time == CustodyEvent.timestamp(Date(timeIntervalSince1970: 3)))
    }
}
