import Archive
import Custody
import Foundation
import Ground
import Ingest
import Query

extension Analyzer {
    /// Writer side of a batch: the records, their thumbnails and their `metadata extraction`
    /// events. Where the record store and the blob store share one transaction (LMDB records
    /// with the archive's own LMDB blobs: `RecordStore.write(committing:releasing:in:_:)`), all
    /// of it in one transaction per batch — one `fdatasync`, and a thumbnail never committed
    /// without the record that names it. Otherwise (S3 blobs, a PostgreSQL index) the
    /// thumbnails first, durable in the blob store (a kill after them leaves blobs no record
    /// names yet, found as `known` next time), then the records in one `RecordStore.write`.
    /// A batch that fails for anything but storage is retried record by record, so only the
    /// failing record fails. A record is committed only onto the version the worker analysed
    /// and only while it still needs analysing, so two runs at once never analyse a record twice.
    func commit(_ batch: [PreparedAnalysis]) throws -> [AnalysisResult] {
        var results: [ContentID: AnalysisResult] = [:]
        var ready: [PreparedAnalysis] = []
        for p in batch {
            if p.skipped {
                results[p.recordId] = AnalysisResult(recordId: p.recordId, outcome: .skipped)
            } else if let e = p.error {
                results[p.recordId] = AnalysisResult(recordId: p.recordId, outcome: .failed, error: e)
            } else {
                ready.append(p)
            }
        }
        for r in try write(ready) { results[r.recordId] = r }
        return batch.compactMap { results[$0.recordId] }
    }

    /// Commits the prepared records with their thumbnails (see `commit`).
    func write(_ ready: [PreparedAnalysis]) throws -> [AnalysisResult] {
        guard !ready.isEmpty else { return [] }
        do {
            let thumbnails = ready.compactMap(\.thumbnailJPEG)
            if let staging = blobs as? any BlobStaging {
                let stages = try thumbnails.map { try staging.stage(inline: $0) }
                if let results = try records.write(committing: stages, releasing: [], in: staging, { _, writer in try apply(ready, writer) }) {
                    return results
                }
                _ = try staging.commit(stages)
            } else {
                for jpeg in thumbnails { _ = try blobs.put(bytes: jpeg) }
            }
            return try records.write { writer in try apply(ready, writer) }
        } catch where !Self.isStorageFailure(error) && ready.count > 1 {
            return try ready.flatMap { try write([$0]) }
        } catch where !Self.isStorageFailure(error) {
            return [AnalysisResult(recordId: ready[0].recordId, outcome: .failed, error: "\(error)")]
        }
    }

    /// Applies the analyses of `ready` in `writer`'s transaction.
    func apply(_ ready: [PreparedAnalysis], _ writer: any RecordWriter<IndexedRecord>) throws -> [AnalysisResult] {
        try ready.map { p in
            let current = try writer.get(recordId: p.recordId)
            guard let (updated, draft) = try update(p, current: current) else { return skipped(p, current) }
            try writer.put(updated)
            try writer.append([try CustodyAppend(draft, for: custody)])
            return analysed(p, updated)
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
