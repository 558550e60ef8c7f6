import Archive
import Foundation
import Ground
import Ingest
import Query

extension Analyzer {
    /// Writer side of a batch: the records, their thumbnails and their `metadata extraction`
    /// events. Over LMDB records with the archive's own LMDB blobs, all in one write
    /// transaction for the batch (retried record by record when a record fails for anything
    /// but storage), each thumbnail put-if-absent beside the record that names it — one
    /// `fdatasync` per batch. With another blob store (S3), each thumbnail first through the
    /// `BlobStore` (a kill after it leaves a blob no record names yet, found as `known` next
    /// time), then the records — over LMDB in one transaction per batch, else one
    /// `RecordStore.put(_:custody:)` each. A record is committed only onto the version the
    /// worker analysed and only while it still needs analysing, so two runs at once never
    /// analyse a record twice.
    func commit(_ batch: [PreparedAnalysis]) throws -> [AnalysisResult] {
        var results: [ContentID: AnalysisResult] = [:]
        var ready: [PreparedAnalysis] = []
        let thumbnailsInTransaction = (records as? LMDBRecordStore).map { blobs.keepsBlobs(in: $0.index.environment) } ?? false
        for p in batch {
            if p.skipped {
                results[p.recordId] = AnalysisResult(recordId: p.recordId, outcome: .skipped)
            } else if let e = p.error {
                results[p.recordId] = AnalysisResult(recordId: p.recordId, outcome: .failed, error: e)
            } else {
                do {
                    if let jpeg = p.thumbnailJPEG, !thumbnailsInTransaction { _ = try blobs.put(bytes: jpeg) }
                    ready.append(p)
                } catch {
                    if Self.isStorageFailure(error) { throw error }
                    results[p.recordId] = AnalysisResult(recordId: p.recordId, outcome: .failed, error: "\(error)")
                }
            }
        }
        for r in try write(ready) { results[r.recordId] = r }
        return batch.compactMap { results[$0.recordId] }
    }

    /// Commits the prepared records (LMDB: one transaction, with the thumbnails when the blobs
    /// are the archive's own LMDB chunks; else one put each).
    func write(_ ready: [PreparedAnalysis]) throws -> [AnalysisResult] {
        guard !ready.isEmpty else { return [] }
        guard let lmdb = records as? LMDBRecordStore else {
            return try ready.map { p in
                do {
                    let current = try records.get(recordId: p.recordId)
                    guard let (updated, draft) = try update(p, current: current) else { return skipped(p, current) }
                    try records.put(updated, custody: [try CustodyAppend(draft, for: custody)])
                    return analysed(p, updated)
                } catch where !Self.isStorageFailure(error) {
                    return AnalysisResult(recordId: p.recordId, outcome: .failed, error: "\(error)")
                }
            }
        }
        let thumbnailsInTransaction = blobs.keepsBlobs(in: lmdb.index.environment)
        do {
            return try lmdb.index.environment.write { txn in
                try ready.map { p in
                    let current = try lmdb.index.get(recordId: p.recordId, in: txn)
                    guard let (updated, draft) = try update(p, current: current) else { return skipped(p, current) }
                    if thumbnailsInTransaction, let jpeg = p.thumbnailJPEG { try blobs.put(bytes: jpeg, in: txn) }
                    try lmdb.index.put(updated, in: txn)
                    try lmdb.custody.append(draft, in: txn)
                    return analysed(p, updated)
                }
            }
        } catch where !Self.isStorageFailure(error) && ready.count > 1 {
            return try ready.flatMap { try write([$0]) }
        } catch where !Self.isStorageFailure(error) {
            return [AnalysisResult(recordId: ready[0].recordId, outcome: .failed, error: "\(error)")]
        }
    }

    /// The record with the analyses applied and its event, or nil when `current` is not the
    /// version analysed (gone, changed since, or no longer needing analysis).
    func update(_ p: PreparedAnalysis, current: IndexedRecord?) throws -> (IndexedRecord, CustodyDraft)? {
        guard let basis = p.basis, let reportJSON = p.reportJSON, var record = current, needsAnalysis(record),
              record.reportId == basis.reportId, record.variants.first?.blobId == basis.variants.first?.blobId else { return nil }
        record.reportJSON = reportJSON
        if let t = p.thumbnail,
           !(record.derived ?? []).contains(where: { $0.kind == t.kind && $0.sourceBlobId == t.sourceBlobId }) {
            record.derived = (record.derived ?? []) + [t]
        }
        record.analyses = RecordAnalyses.done(by: options.agent.tool)
        let draft = CustodyDraft(.metadataExtraction, agent: options.agent,
                                 objects: [.record(record.recordId), .report(record.reportId)] + p.analysedBlobs.map { .blob($0) },
                                 outcome: p.mediaErrors > 0 || p.thumbnail?.finding != nil ? .warning : .success,
                                 detail: "media analyses from stored blobs: \(p.summary); \(tool)")
        return (record, draft)
    }

    func analysed(_ p: PreparedAnalysis, _ record: IndexedRecord) -> AnalysisResult {
        AnalysisResult(recordId: p.recordId, outcome: .analysed, record: record, mediaFiles: p.mediaFiles, mediaErrors: p.mediaErrors,
                       thumbnail: p.thumbnail.map { t in t.finding ?? "\(t.width ?? 0)x\(t.height ?? 0)" })
    }

    /// Not committed: skipped when the record no longer needs analysing (or is gone), failed
    /// when it changed since it was read (it stays pending for the next run).
    func skipped(_ p: PreparedAnalysis, _ current: IndexedRecord?) -> AnalysisResult {
        if let current, needsAnalysis(current) {
            return AnalysisResult(recordId: p.recordId, outcome: .failed,
                                  error: "\(StatusCode.analysisRecordChanged): record \(p.recordId) changed while it was analysed; run analyze again")
        }
        return AnalysisResult(recordId: p.recordId, outcome: .skipped)
    }

    /// An LMDB failure (disk full, corruption) stops the run; any other error fails one record.
    static func isStorageFailure(_ error: any Error) -> Bool {
        storageFailure(in: error) != nil
    }
}
