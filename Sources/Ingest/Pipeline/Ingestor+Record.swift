import Archive
import Custody
import Foundation
import Ground
import Query
import Verify

extension Ingestor {
    /// The record step of a batch whose blobs are durable: one `RecordStore.write` transaction
    /// for every capture whose blobs were stored; on a failure that is not the storage's, one
    /// transaction per capture, so only the failing capture is lost (`failed`).
    func writeRecords(_ batch: [WriterEntry], now: String) throws -> [IngestItem] {
        do {
            return try archive.records.write { writer in try recordItems(batch, now: now, in: writer) }
        } catch where !Self.isStorageFailure(error) && batch.count > 1 {
            return try batch.flatMap { try writeRecords([$0], now: now) }
        } catch where !Self.isStorageFailure(error) {
            return [failedItem(batch[0].capture, error)]
        }
    }

    /// Writes the records of a batch whose blobs are durable (or commit in the same
    /// transaction) through `writer`, then runs `options.inCommit`.
    func recordItems(_ batch: [WriterEntry], now: String,
                     in writer: any RecordWriter<IndexedRecord>) throws -> [IngestItem] {
        let items = try batch.map { p, blobs, draft in
            switch blobs {
            case .failed(let error): failedItem(p, error)
            case .unchanged: presentUnchanged(p)
            case .stored(let ids, let newBlobs, let extra): try write(p, blobs: ids, newBlobs: newBlobs, extraBytes: extra,
                                                                      now: now, draft: draft, in: writer)
            }
        }
        try options.inCommit?(items, writer)
        return items
    }

    /// A capture already archived exactly as found (checked by the worker against the record):
    /// nothing written, no event.
    func presentUnchanged(_ p: PreparedCapture) -> IngestItem {
        IngestItem(path: p.location.deliveryFile, sourcePath: p.sourcePath,
                   recordId: p.report.recordId ?? IndexedRecord.unreadableId(sourcePath: p.sourcePath),
                   outcome: .present, report: p.report, error: nil, newBlobs: 0, bytes: p.bytes)
    }

    /// Writes one capture's record (new, a new variant of a known one, or nothing when already
    /// present) and its custody events through `writer`. `blobs` are the capture's files, durable
    /// already. A new record uses `draft` (the record and events made ahead by the drafter; the
    /// events re-made by the store's `make` if the chain head is not the one they were made for).
    /// Re-runnable.
    func write(_ p: PreparedCapture, blobs: [ContentID], newBlobs: Int, extraBytes: UInt64, now: String,
               draft: RecordDraft? = nil, in writer: any RecordWriter<IndexedRecord>) throws -> IngestItem {
        let report = p.report
        let recordId = report.recordId ?? IndexedRecord.unreadableId(sourcePath: p.sourcePath)
        var item = IngestItem(path: p.location.deliveryFile, sourcePath: p.sourcePath, recordId: recordId,
                              outcome: .new, report: report, error: nil, newBlobs: newBlobs, bytes: p.bytes + extraBytes)
        var drafts: [CustodyDraft] = []
        // The record as this capture describes it (its report JSON usually made by the worker);
        // a present capture with nothing new needs none of it.
        func makeFresh() throws -> IndexedRecord {
            var fresh = try IndexedRecord(report: report, recordId: recordId, sourcePath: p.sourcePath, ingestTime: now, reportJSON: p.reportJSON)
            fresh.analyses = analyses(for: p)
            return fresh
        }
        if var existing = try writer.get(recordId: recordId) {
            if let blob = report.sha256, !existing.variants.contains(where: { $0.blobId == blob }) {
                item.outcome = .variant
                let fresh = try makeFresh()
                existing.variants += fresh.variants
                existing.merge(files: fresh.files)
                if fresh.integrity == .intact, existing.integrity != .intact { existing.adoptVerification(of: fresh) }
                try writer.put(existing)
                // The variant's own report (adopted or not) is kept and named by its ID.
                let variantReport = try writer.putReport(fresh.reportJSON)
                drafts = events(for: p, recordId: recordId, reportId: variantReport, blobs: blobs,
                                detail: "new variant \(blob) of a known record from \(p.sourcePath)")
            } else if var updated = secondCopy(p, of: existing, now: now) {
                // A known delivery file whose other files differ: compared, never assumed. The
                // copy's report (the one that found the difference) is kept by its ID too.
                item.outcome = .variant
                let copyReport = try writer.putReport(p.reportJSON ?? IndexedRecord.encode(report))
                updated.nameReport(copyReport, ofVariantsAfter: existing.sidecarVariants?.count ?? 0)
                try writer.put(updated)
                let added = (updated.sidecarVariants ?? []).dropFirst(existing.sidecarVariants?.count ?? 0)
                let states = added.map { "\($0.sink.rawValue)=\($0.state.rawValue)" }.joined(separator: ",")
                drafts = events(for: p, recordId: recordId, reportId: copyReport, blobs: blobs,
                                detail: "second copy of a known delivery file from \(p.sourcePath): "
                                    + (states.isEmpty ? "other evidence files" : "sidecar variant(s) \(states)"))
            } else {
                item.outcome = .present
                let blob = report.sha256
                if let i = existing.variants.firstIndex(where: { $0.blobId == blob }),
                   !existing.variants[i].sourcePaths.contains(p.sourcePath) {
                    item.outcome = .pathAdded  // something is written: not `present`
                    existing.variants[i].sourcePaths.append(p.sourcePath)
                    existing.merge(files: IndexedRecord.storedFiles(report))
                    try writer.put(existing)
                    drafts = [CustodyDraft(.ingestion, agent: options.agent,
                                           objects: [.record(recordId), .report(existing.reportId)] + blobs.map { .blob($0) },
                                           detail: "already present; source path \(p.sourcePath) added")]
                }
            }
        } else {
            var fresh = try draft?.fresh ?? makeFresh()
            addThumbnail(p, to: &fresh)
            try writer.put(fresh)
            if let carried = draft?.events {
                try writer.append(carried)
                return item
            }
            drafts = events(for: p, recordId: recordId, reportId: fresh.reportId, blobs: blobs, detail: newRecordDetail(p))
        }
        try writer.append(archive.custodyStore.appends(drafts))
        return item
    }

    /// The events of a capture stored: digests, signature, validation, ingestion. The
    /// validation and ingestion events name `reportId`, the stored report (its SHA-256), so the
    /// hash-chained log commits to the report's bytes.
    func events(for p: PreparedCapture, recordId: ContentID, reportId: ContentID, blobs: [ContentID], detail: String) -> [CustodyDraft] {
        let r = p.report
        let agent = options.agent
        let record = CustodyEvent.Object.record(recordId)
        var out: [CustodyDraft] = []
        let size = r.files.reduce(UInt64(0)) { $0 + $1.size }
        out.append(CustodyDraft(.messageDigestCalculation, agent: agent, objects: [record] + blobs.map { .blob($0) },
                                detail: "SHA-256 of \(r.files.count) file(s), \(size) bytes"))
        if let s = r.signer {
            let ok = r.integrity == .intact && s.trust == .trusted
            out.append(CustodyDraft(.digitalSignatureValidation, agent: agent, objects: [record],
                                    outcome: ok ? .success : .warning,
                                    detail: "signer \(s.keyFingerprint) \(s.trust.rawValue); integrity \(r.integrity.rawValue); timestamp \(r.timestamp.state)"))
        }
        var validation = "integrity \(r.integrity.rawValue)"
        if !r.sidecars.isEmpty { validation += "; sidecars " + r.sidecars.map { "\($0.sink.rawValue)=\($0.state.rawValue)" }.joined(separator: ",") }
        if !r.statusCodes.failure.isEmpty { validation += "; failures " + r.statusCodes.failure.map(\.code).joined(separator: ",") }
        if let e = r.error { validation += "; error \(e.code)" }
        out.append(CustodyDraft(.validation, agent: agent, objects: [record, .report(reportId)] + (r.sha256.map { [.blob($0)] } ?? []),
                                outcome: r.needsAttention ? .failure : .success, detail: validation))
        out.append(CustodyDraft(.ingestion, agent: agent, objects: [record, .report(reportId)] + blobs.map { .blob($0) }, detail: detail))
        return out
    }
}
