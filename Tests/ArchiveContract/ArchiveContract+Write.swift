import Archive
import Foundation
import Ground
import Ingest
import Query
import Testing

extension ArchiveContract {
    struct Abort: Error {}

    /// `RecordStore.write`, ingest's commit call: records, reports and custody events of one
    /// body commit together; the body sees its own puts; a body that throws leaves nothing —
    /// no record, no report, no event.
    public static func writeCommitsTogether(_ s: ArchiveSubject) throws {
        let a = RecordSamples.record(1, seed: 23), b = RecordSamples.record(2, seed: 23)
        let extra = Data("a variant's own report \(UUID())".utf8)
        let head = try s.custody.head().seq
        let (extraID, events) = try s.records.write { w -> (ContentID, Int) in
            #expect(try w.get(recordId: a.recordId) == nil)
            try w.put(a)
            #expect(try w.get(recordId: a.recordId)?.recordId == a.recordId)  // its own put
            try w.put(b)
            let id = try w.putReport(extra)
            let appended = try w.append([try event(naming: a.recordId.hex), try event(naming: b.recordId.hex)])
            return (id, appended.count)
        }
        #expect(events == 2)
        #expect(extraID == ContentID.sha256(of: Array(extra)))
        #expect(try s.records.recordCount() == 2)
        #expect(try s.records.report(extraID, of: a.recordId) == extra)
        #expect(try s.custody.head().seq == head + 2)
        #expect(try s.custody.verifyChain().isIntact)

        // A body that throws after putting, reporting and appending: nothing of it stays.
        let c = RecordSamples.record(3, seed: 23)
        let lost = Data("never stored \(UUID())".utf8)
        #expect(throws: Abort.self) {
            try s.records.write { w in
                try w.put(c)
                try w.putReport(lost)
                try w.append([try event(naming: c.recordId.hex)])
                throw Abort()
            }
        }
        #expect(try s.records.get(recordId: c.recordId) == nil)
        #expect(try s.records.recordCount() == 2)
        #expect(throws: (any Error).self) { try s.records.report(ContentID.sha256(of: Array(lost)), of: c.recordId) }
        #expect(try s.custody.head().seq == head + 2)
    }
}

extension ArchiveContract {
    /// Two writers on handles of their own read, change and put back the same record in
    /// `write { }` transactions at once (what two `analyze` runs or workers do): every change
    /// lands — a writer's `get` sees the other's committed put, never a version the other is
    /// replacing — so no update is lost (LMDB: one writer at a time; PostgreSQL: the row locked
    /// by the writer's `get`, `SELECT … FOR UPDATE`).
    public static func readModifyWriteIsSerialised(_ s: ArchiveSubject, each: Int = 25) throws {
        let base = RecordSamples.record(7, seed: 29)
        try s.records.put(base)
        try twoWriters(s) { w, handle in
            for i in 0..<each {
                try handle.records.write { writer in
                    guard var r = try writer.get(recordId: base.recordId) else { throw Abort() }
                    Thread.sleep(forTimeInterval: 0.001)  // widen the window between read and write
                    r.failureCodes.append("contract.writer\(w).change\(i)")
                    try writer.put(r)
                }
            }
        }
        let final = try #require(try s.records.get(recordId: base.recordId))
        let added = final.failureCodes.filter { $0.hasPrefix("contract.writer") }
        #expect(added.count == 2 * each, "lost updates: \(2 * each - added.count)")
        for w in 0..<2 {
            #expect(added.filter { $0.hasPrefix("contract.writer\(w).") } == (0..<each).map { "contract.writer\(w).change\($0)" })
        }
    }
}

extension ArchiveContract {
    /// Two writers on handles of their own each add their change to a record that does not
    /// exist yet — reading it, finding nothing, putting a new record — at once (two workers
    /// committing the two variants of one capture, a re-wrapped copy beside the original): the
    /// second writer's `get` waits for the first's commit and sees its record, so both changes
    /// land. A row lock alone cannot do this (there is no row yet to lock): PostgreSQL's writer
    /// also takes a transaction-scoped advisory lock per record ID before reading.
    public static func firstPutsOfANewRecordAreSerialised(_ s: ArchiveSubject, rounds: Int = 12) throws {
        let records = (0..<rounds).map { RecordSamples.record(100 + $0, seed: 31) }
        try twoWriters(s) { w, handle in
            for record in records {
                try handle.records.write { writer in
                    var r = try writer.get(recordId: record.recordId) ?? record
                    Thread.sleep(forTimeInterval: 0.005)  // widen the window between read and write
                    r.failureCodes.append("contract.writer\(w)")
                    try writer.put(r)
                }
            }
        }
        for record in records {
            let final = try #require(try s.records.get(recordId: record.recordId))
            #expect(final.failureCodes.filter { $0.hasPrefix("contract.writer") }.sorted() == ["contract.writer0", "contract.writer1"],
                    "record \(record.recordId): a new record's first put lost the other writer's")
        }
    }
}

extension ArchiveContract {
    /// Runs `body` on two threads at once, each with a handle of its own (`ArchiveSubject.another`)
    /// and its writer number (0, 1); returns when both are done, and fails the test with every
    /// error either body threw.
    static func twoWriters(_ s: ArchiveSubject,
                           _ body: @escaping @Sendable (Int, (records: any RecordStore<IndexedRecord>, custody: any CustodyStore)) throws -> Void) throws {
        let group = DispatchGroup()
        let lock = NSLock()
        nonisolated(unsafe) var failures: [String] = []
        for w in 0..<2 {
            let handle = try s.another()
            group.enter()
            Thread {
                defer { group.leave() }
                do { try body(w, handle) } catch { lock.lock(); failures.append("writer \(w): \(error)"); lock.unlock() }
            }.start()
        }
        group.wait()
        #expect(failures.isEmpty, "\(failures)")
    }
}
