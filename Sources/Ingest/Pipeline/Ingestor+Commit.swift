import Archive
import Custody
import Foundation
import Ground
import Query
import Verify

extension Ingestor {
    /// What the blob step did for one capture of a batch.
    enum CaptureBlobs {
        /// Stored: the blobs the record names (in `report.files` order), how many were new (its
        /// thumbnail's included), and the bytes read by puts of files the walk had not staged.
        case stored(blobs: [ContentID], newBlobs: Int, extraBytes: UInt64)
        /// Already archived exactly as found: nothing stored.
        case unchanged
        /// The capture fails (a file changed): nothing of it is named by a record.
        case failed(any Error)
    }

    /// The blobs of a batch, decided before anything is written: what to commit (with the
    /// capture each belongs to), what to release, and per capture its outcome so far.
    struct BlobPlan {
        var results: [CaptureBlobs] = []
        var toCommit: [BlobStage] = []
        var owner: [Int] = []  // capture index of each staged blob in `toCommit`
        var extraNew: [Int] = []
        var toRelease: [BlobStage] = []

        /// The outcomes with each capture's count of new blobs, given `isNew` for `toCommit`.
        func results(isNew: [Bool]) -> [CaptureBlobs] {
            var counts = extraNew
            for (k, new) in isNew.enumerated() where new { counts[owner[k]] += 1 }
            return results.enumerated().map { i, r in
                if case .stored(let ids, _, let extra) = r { return .stored(blobs: ids, newBlobs: counts[i], extraBytes: extra) }
                return r
            }
        }
    }

    /// Commits a batch of prepared captures: every blob they name and their records and custody
    /// events. On the LMDB archive (blobs and records in one environment) that is one write
    /// transaction, so one durable commit per batch. Otherwise (S3 blobs, a PostgreSQL index),
    /// and again when that transaction fails for anything but the storage itself, two steps:
    /// the blobs durable in the blob store in one call (`BlobStaging.commit`), then the records
    /// in one record-store transaction (`RecordStore.write`), record by record if that fails,
    /// so only the failing capture is lost. Killed between those two steps, the archive holds
    /// blobs no record names (LMDB: blob records; S3: ledgered objects), never a record naming
    /// a missing blob.
    ///
    /// The batch comes drafted (`draft(_:head:mismatch:)`): its new records and their custody
    /// events were made outside the transaction; the writer checks each inside it (the record
    /// absent, the chain head the predicted one) and makes what it cannot use as before.
    func commit(_ drafted: DraftedBatch) throws -> [IngestItem] {
        let batch = drafted.captures
        let now = drafted.now
        let plan = try planBlobs(batch)
        func entries(_ isNew: [Bool]) -> [WriterEntry] {
            zip(zip(batch, plan.results(isNew: isNew)), drafted.records).map { ($0.0, $0.1, $1) }
        }
        do {
            let items = try archive.records.write(committing: plan.toCommit, releasing: plan.toRelease, in: archive.blobs) { isNew, writer in
                try recordItems(entries(isNew), now: now, in: writer)
            }
            if let items { return items }
        } catch where !Self.isStorageFailure(error) {
            // Rolled back as a whole: the two steps below find which capture fails.
        }
        let isNew = try archive.blobs.commit(plan.toCommit)
        try archive.blobs.release(plan.toRelease)
        return try writeRecords(entries(isNew), now: now)
    }

    /// One capture of a batch as the record step gets it: its blob outcome and its draft.
    typealias WriterEntry = (capture: PreparedCapture, blobs: CaptureBlobs, draft: RecordDraft?)

    /// The blob step's plan: per capture the staged files the verifier used (each under the
    /// digest it reported) and the thumbnail of a record that will be new; files the verifier
    /// read that were not staged are put now (opened from the dump root's descriptor, never
    /// through a symlink, and refused unless they hash to the reported digest). Staged files
    /// the verifier did not use are to be released.
    func planBlobs(_ batch: [PreparedCapture]) throws -> BlobPlan {
        var plan = BlobPlan()
        var seen = Set<ContentID>()  // records of this batch's earlier captures (only the first may be new)
        for (i, p) in batch.enumerated() {
            plan.extraNew.append(0)
            if let failure = p.storageFailure { throw failure }
            if let failure = p.failure {
                plan.toRelease += p.staged.values
                plan.results.append(.failed(failure))
                continue
            }
            if p.unchanged {
                plan.toRelease += p.staged.values
                plan.results.append(.unchanged)
                continue
            }
            let report = p.report
            var ids: [ContentID] = []
            var mine: [BlobStage] = []
            var extraBytes: UInt64 = 0
            do {
                for f in report.files {
                    if let s = p.staged[f.path], s.id == f.sha256 {
                        mine.append(s)
                    } else {
                        let file = try DumpDirectory.file(f.path, under: p.location.dumpRoot)
                        if try putUnstaged(file, as: f) == .new { plan.extraNew[i] += 1 }
                        extraBytes += UInt64(max(0, file.count))
                    }
                    ids.append(f.sha256)
                }
            } catch where !Self.isStorageFailure(error) {
                plan.toRelease += p.staged.values
                plan.results.append(.failed(error))
                continue
            }
            let used = Set(report.files.map(\.path))
            plan.toRelease += p.staged.filter { !used.contains($0.key) }.map(\.value)
            let recordId = report.recordId ?? IndexedRecord.unreadableId(sourcePath: p.sourcePath)
            // Only a record that will be new takes its thumbnail (Ingestor+Thumbnail.swift); a
            // capture without one (--defer-media) does not ask the index.
            if seen.insert(recordId).inserted, let thumb = p.thumbnail?.staged, try !archive.records.contains(recordId: recordId) {
                mine.append(thumb)
            }
            plan.toCommit += mine
            plan.owner += Array(repeating: i, count: mine.count)
            plan.results.append(.stored(blobs: ids, newBlobs: 0, extraBytes: extraBytes))
        }
        return plan
    }

    /// Puts a file the walk did not stage as blob `f.sha256`: a file whose bytes are not that
    /// blob (it changed since the verifier read it) is `ingest.sourceChanged`.
    func putUnstaged(_ file: FileByteSource, as f: CaptureReport.File) throws -> BlobPutStatus {
        var source = ByteReader(file)
        do {
            return try archive.blobs.put(f.sha256, size: file.count, from: &source)
        } catch let e as any NamedError where Self.isMismatch(e) {
            throw IngestError.sourceChanged(path: f.path, reason: "its bytes are not \(f.sha256.hex), which the verifier read (\(e.statusCode))")
        }
    }

    /// A put refused because the bytes are not the ID (or not its length).
    static func isMismatch(_ e: any NamedError) -> Bool {
        [StatusCode.casBlobMismatch, StatusCode.s3IntegrityRejected, StatusCode.s3IntegrityMismatch, StatusCode.s3Input].contains(e.statusCode)
    }

    /// A failure of the storage itself — LMDB (disk full, corruption), the object store (S3
    /// unreachable, credentials refused: any `s3.*` code), the PostgreSQL index (any `pg.*`
    /// code but a constraint's) or the shared S3 blob ledger (`archive.blobs.markLost`: a
    /// staging mark expired under the batch) — stops the run; any other error fails one capture.
    static func isStorageFailure(_ error: any Error) -> Bool {
        if storageFailure(in: error) != nil { return true }
        if let e = error as? any NamedError {
            let code = e.statusCode
            if code.hasPrefix(StatusCode.casStorage) || code.hasPrefix("s3.") { return true }
            if code.hasPrefix("pg."), !code.hasPrefix(StatusCode.pgConstraint) { return true }
            if code == StatusCode.archiveBlobsMarkLost { return true }
        }
        return false
    }

    /// The failed item of a capture nothing of which was stored.
    func failedItem(_ p: PreparedCapture, _ error: any Error) -> IngestItem {
        let message = (error as? IngestError).map(\.description) ?? "\(error)"
        return IngestItem(path: p.location.deliveryFile, sourcePath: p.sourcePath, recordId: p.report.recordId,
                          outcome: .failed, report: p.report, error: message, newBlobs: 0, bytes: p.bytes)
    }
}
