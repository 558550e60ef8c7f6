import Foundation
import Ground
@testable import Ingest
import Testing

/// The drafter → writer handoff of ingest (docs/ingest.md "Pipeline", since session 10): in
/// order, at most `capacity` waiting, "everything handed over is committed" for the drafter, and
/// a cancel that frees both sides.
@Suite struct DraftHandoffTests {
    @Test func handsOverInOrderAndHoldsAtMostItsCapacity() {
        let handoff = DraftHandoff<Int>(capacity: 1)
        #expect(handoff.put(1))
        let third = Locked(false)
        let drafter = Thread {
            _ = handoff.put(2)  // waits until 1 is taken
            third.withLock { $0 = true }
            handoff.finish()
        }
        drafter.start()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(third.withLock { $0 } == false, "a second value waits while one is waiting")
        #expect(handoff.take() == 1)
        #expect(handoff.take() == 2)
        #expect(handoff.take() == nil, "finished and nothing waits")
    }

    @Test func waitUntilCommittedReturnsOnceTheWriterCommittedEverythingHandedOver() {
        let handoff = DraftHandoff<Int>(capacity: 1)
        #expect(handoff.put(1))
        let returned = Locked(false)
        let drafter = Thread {
            _ = handoff.waitUntilCommitted()
            returned.withLock { $0 = true }
        }
        drafter.start()
        #expect(handoff.take() == 1)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(returned.withLock { $0 } == false, "taken is not committed")
        handoff.markCommitted()
        let deadline = Date(timeIntervalSinceNow: 10)
        while !returned.withLock({ $0 }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(returned.withLock { $0 })
    }

    @Test func cancelFreesAWaitingDrafterAndWriter() {
        let handoff = DraftHandoff<Int>(capacity: 1)
        #expect(handoff.put(1))
        let results = Locked<[String]>([])
        let drafter = Thread {
            let put = handoff.put(2)  // waits; not under `results`' lock
            results.withLock { $0.append("put \(put)") }
        }
        drafter.start()
        Thread.sleep(forTimeInterval: 0.05)
        handoff.cancel()
        let deadline = Date(timeIntervalSinceNow: 10)
        while results.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(results.withLock { $0 } == ["put false"])
        #expect(handoff.take() == nil, "a cancelled run hands nothing more to the writer")
        #expect(handoff.waitForRoom() == false)
        #expect(handoff.waitUntilCommitted() == false)
    }
}
