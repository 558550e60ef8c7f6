import Foundation
import Ground
@testable import Ingest
import Testing
import Verify

/// The writer's batch policy (docs/ingest.md "Pipeline", since session 9): it waits, at most
/// `batchWait` per batch, for a sixteenth of the run before it commits, so a bulk ingest commits
/// full batches while a run of a few captures still commits them as they come.
@Suite struct BatchPolicyTests {
    @Test func theTargetIsASixteenthOfTheRunBetweenOneAndTheBatchLimit() throws {
        let ingestor = Ingestor(archive: try DumpFixture.archive().archive(), verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none))
        #expect(ingestor.batchTarget(captures: 1) == 1)
        #expect(ingestor.batchTarget(captures: 8) == 1, "a small run (IngestKillTests' 8) commits capture by capture")
        #expect(ingestor.batchTarget(captures: 31) == 1)
        #expect(ingestor.batchTarget(captures: 422) == 26)
        #expect(ingestor.batchTarget(captures: 3_964) == ingestor.options.batchCaptures)
    }

    @Test func takeUntilADeadlineWaitsForTheNextResultOrGivesUp() {
        let channel = OrderedChannel<Int>(count: 3, window: 3, minWindow: 1, budget: 1 << 20, weight: { _ in 1 })
        #expect(channel.claim() == 0)
        #expect(channel.claim() == 1)
        channel.deliver(0, 10)
        #expect(channel.take(0, until: Date(timeIntervalSinceNow: 5)) == 10)
        // Nothing delivered for index 1: nil once the deadline has passed, not before.
        let start = Date()
        #expect(channel.take(1, until: Date(timeIntervalSinceNow: 0.2)) == nil)
        #expect(Date().timeIntervalSince(start) >= 0.19)
        // Delivered by another thread while the consumer waits: taken, long before the deadline.
        let worker = Thread { Thread.sleep(forTimeInterval: 0.05); channel.deliver(1, 11) }
        worker.start()
        #expect(channel.take(1, until: Date(timeIntervalSinceNow: 30)) == 11)
        #expect(channel.claim() == 2, "taking 0 and 1 freed their slots")
    }

    /// Since session 10 the drafter thread takes from the channel: a run cancelled (the writer
    /// failed) must free it, since the workers stop delivering.
    @Test func aCancelledChannelFreesItsConsumer() {
        let channel = OrderedChannel<Int>(count: 2, window: 2, minWindow: 1, budget: 1 << 20, weight: { _ in 1 })
        let got = Locked<[Int?]>([])
        let consumer = Thread {
            let v = channel.take(0)  // not under `got`'s lock: the test reads it meanwhile
            got.withLock { $0.append(v) }
        }
        consumer.start()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(got.withLock { $0 }.isEmpty, "waits for index 0")
        channel.cancel()
        let deadline = Date(timeIntervalSinceNow: 10)
        while got.withLock({ $0 }).isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(got.withLock { $0 } == [nil])
        #expect(channel.take(1, until: Date(timeIntervalSinceNow: 5)) == nil)
    }
}
