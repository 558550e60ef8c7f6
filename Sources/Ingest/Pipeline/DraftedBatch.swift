import Archive
import Custody
import Foundation
import Ground
import Query

/// A batch of prepared captures as the drafter hands it to the writer (docs/ingest.md,
/// "Session 10"): its ingest time and, for each capture that will most likely make a new record,
/// that record and its custody events, made outside the write transaction while the writer
/// commits the batch before.
struct DraftedBatch: Sendable {
    let captures: [PreparedCapture]
    /// The ingest time of every record and variant the batch writes.
    let now: String
    /// Per capture (same order): its drafted new record, or nil (the writer makes what it needs).
    let records: [RecordDraft?]
}

/// A capture's record as a new record (without its thumbnail, which only a record the writer
/// finds new takes), and the custody events of a new record, made for the chain head the
/// drafter predicts (`CustodyAppend.carried`); nil events when the head was not known.
struct RecordDraft: Sendable {
    let fresh: IndexedRecord
    let events: [CustodyAppend]?
}

extension Ingestor {
    /// Drafts `batch` for the chain head `head` predicts, and moves `head` past its events. A
    /// capture whose record the worker found in the archive (no `reportJSON`) appends events the
    /// drafter cannot foresee (a variant, a path added, nothing): no events are drafted after
    /// it, and `head` becomes nil (the next batch waits for the writer to read the real head).
    /// A draft that fails is left out: the writer makes that capture's record as before.
    func draft(_ batch: [PreparedCapture], head: inout CustodyHead?, mismatch: @escaping @Sendable () -> Void) -> DraftedBatch {
        let now = CustodyEvent.timestamp(Date())
        let records = batch.map { p -> RecordDraft? in
            if p.unchanged || p.failure != nil || p.storageFailure != nil { return nil }
            guard let json = p.reportJSON else {
                head = nil
                return nil
            }
            let recordId = p.report.recordId ?? IndexedRecord.unreadableId(sourcePath: p.sourcePath)
            do {
                var fresh = try IndexedRecord(report: p.report, recordId: recordId, sourcePath: p.sourcePath, ingestTime: now, reportJSON: json)
                fresh.analyses = analyses(for: p)
                guard var h = head else { return RecordDraft(fresh: fresh, events: nil) }
                let drafts = events(for: p, recordId: recordId, reportId: fresh.reportId, blobs: p.report.files.map(\.sha256),
                                    detail: newRecordDetail(p))
                var carried: [CustodyAppend] = []
                for a in try archive.custodyStore.appends(drafts) {
                    let (c, next) = try a.carried(after: h, mismatch: mismatch)
                    carried.append(c)
                    h = next
                }
                head = h
                return RecordDraft(fresh: fresh, events: carried)
            } catch {
                head = nil
                return nil
            }
        }
        return DraftedBatch(captures: batch, now: now, records: records)
    }

    /// The ingestion event's detail of a new record.
    func newRecordDetail(_ p: PreparedCapture) -> String { "new record from \(p.sourcePath)" }
}
