import CAS
import Foundation
import Ground
import LMDB
import Query
import Verify

extension Ingestor {
    /// Commits a batch of prepared captures in one write transaction; if anything but the
    /// storage itself fails, commits them one by one so only the failing capture is lost.
    func commit(_ batch: [PreparedCapture]) throws -> [IngestItem] {
        let now = CustodyLog.timestamp(Date())
        do {
            return try archive.environment.write { txn in try batch.map { try write($0, now: now, in: txn) } }
        } catch where !Self.isStorageFailure(error) && batch.count > 1 {
            return try batch.flatMap { try commit([$0]) }
        } catch where !Self.isStorageFailure(error) {
            let p = batch[0]
            try archive.environment.write { txn in for s in p.staged.values { try archive.store.release(s, in: txn) } }
            let message = (error as? IngestError).map(\.description) ?? (error as? CASError).map { "\($0)" } ?? "\(error)"
            return [IngestItem(path: p.location.deliveryFile, sourcePath: p.sourcePath, recordId: p.report.recordId,
                               outcome: .failed, report: p.report, error: message, newBlobs: 0, bytes: p.bytes)]
        }
    }

    /// An LMDB failure (disk full, corruption) stops the run; any other error fails one capture.
    static func isStorageFailure(_ error: any Error) -> Bool {
        if LMDBError.underlying(error) != nil { return true }
        if case CASError.storage = error { return true }
        return false
    }

    /// Writes one capture in `txn`: its blobs, its record (new, a new variant of a known one,
    /// or nothing when already present) and its custody events. Re-runnable.
    func write(_ p: PreparedCapture, now: String, in txn: Transaction) throws -> IngestItem {
        let report = p.report
        let recordId = report.recordId ?? IndexedRecord.unreadableId(sourcePath: p.sourcePath)
        var item = IngestItem(path: p.location.deliveryFile, sourcePath: p.sourcePath, recordId: recordId,
                              outcome: .new, report: report, error: nil, newBlobs: 0, bytes: p.bytes)
        // A file changed while the worker read it: the capture fails whole (its staged copies
        // are released by the caller), the batch goes on.
        if let failure = p.failure { throw failure }
        if p.unchanged {
            // Already archived exactly as found (checked by the worker against the record):
            // nothing to write, no event; the staged copies are dropped.
            for s in p.staged.values { try archive.store.release(s, in: txn) }
            item.outcome = .present
            return item
        }
        // Blobs: exactly the files the verifier read, each under the digest it reported.
        var blobs: [ContentID] = []
        for f in report.files {
            if let s = p.staged[f.path], s.id == f.sha256 {
                if try archive.store.commit(s, in: txn) { item.newBlobs += 1 }
            } else {
                // Not staged by the walk: opened from the dump root's descriptor, one component at
                // a time, never through a symlink (a path string could lead out of the dump).
                let file = try DumpDirectory.file(f.path, under: p.location.dumpRoot)
                var source = ByteReader(file)
                let put = try archive.store.put(from: &source, in: txn)
                guard put.id == f.sha256 else {
                    throw IngestError.sourceChanged(path: f.path, reason: "hashes to \(put.id.hex), the verifier read \(f.sha256.hex)")
                }
                if put.isNew { item.newBlobs += 1 }
                item.bytes += put.size
            }
            blobs.append(f.sha256)
        }
        let used = Set(report.files.map(\.path))
        for (path, s) in p.staged where !used.contains(path) { try archive.store.release(s, in: txn) }

        var drafts: [CustodyDraft] = []
        // The record as this capture describes it (its report JSON usually made by the worker);
        // a present capture with nothing new needs none of it.
        func makeFresh() throws -> IndexedRecord {
            var fresh = try IndexedRecord(report: report, recordId: recordId, sourcePath: p.sourcePath, ingestTime: now, reportJSON: p.reportJSON)
            fresh.analyses = analyses(for: p)
            return fresh
        }
        if var existing = try archive.index.get(recordId: recordId, in: txn) {
            if let blob = report.sha256, !existing.variants.contains(where: { $0.blobId == blob }) {
                item.outcome = .variant
                let fresh = try makeFresh()
                existing.variants += fresh.variants
                existing.merge(files: fresh.files)
                if fresh.integrity == .intact, existing.integrity != .intact { existing.adoptVerification(of: fresh) }
                try archive.index.put(existing, in: txn)
                // The variant's own report (adopted or not) is kept and named by its ID.
                let variantReport = try archive.index.putReport(fresh.reportJSON, in: txn)
                drafts = events(for: p, recordId: recordId, reportId: variantReport, blobs: blobs,
                                detail: "new variant \(blob) of a known record from \(p.sourcePath)")
            } else if var updated = secondCopy(p, of: existing, now: now) {
                // A known delivery file whose other files differ: compared, never assumed. The
                // copy's report (the one that found the difference) is kept by its ID too.
                item.outcome = .variant
                let copyReport = try archive.index.putReport(p.reportJSON ?? IndexedRecord.encode(report), in: txn)
                updated.nameReport(copyReport, ofVariantsAfter: existing.sidecarVariants?.count ?? 0)
                try archive.index.put(updated, in: txn)
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
                    try archive.index.put(existing, in: txn)
                    drafts = [CustodyDraft(.ingestion, agent: options.agent,
                                           objects: [.record(recordId), .report(existing.reportId)] + blobs.map { .blob($0) },
                                           detail: "already present; source path \(p.sourcePath) added")]
                }
            }
        } else {
            var fresh = try makeFresh()
            if try addThumbnail(p, to: &fresh, in: txn) { item.newBlobs += 1 }
            try archive.index.put(fresh, in: txn)
            drafts = events(for: p, recordId: recordId, reportId: fresh.reportId, blobs: blobs, detail: "new record from \(p.sourcePath)")
        }
        try archive.custody.append(drafts, in: txn)
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
