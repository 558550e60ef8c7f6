import Foundation
import Ground
import Query
import Verify

extension Ingestor {
    /// The record updated by a second copy of a known capture: `p`'s delivery file is one of
    /// `existing`'s variants, but the copy was verified (it did not match the record exactly)
    /// and its files are compared with the record's, never assumed equal. Each sink whose
    /// state or found digest no copy stored so far had becomes a `SidecarVariant` (its bytes
    /// are among the capture's files, committed by the caller); every file of the copy the
    /// record does not list yet is added; the record's sink states roll up every copy. Nil
    /// when the copy brings nothing new (the capture is then `present`).
    func secondCopy(_ p: PreparedCapture, of existing: IndexedRecord, now: String) -> IndexedRecord? {
        let report = p.report
        let known = Set(existing.files.map { FileKey(blobId: $0.blobId, relativePath: $0.relativePath) })
        let newFiles = IndexedRecord.storedFiles(report).filter { !known.contains(FileKey(blobId: $0.blobId, relativePath: $0.relativePath)) }

        // What every stored copy found for each sink: the first copy's (the stored report) and
        // each sidecar variant's.
        var seen: [SidecarSink: Set<SinkCopy>] = [:]
        if let stored = try? CaptureReport.decode(existing.reportJSON) {
            for s in stored.sidecars { seen[s.sink, default: []].insert(SinkCopy(state: s.state, sha256: s.actualSha256)) }
        } else {
            for (sink, state) in existing.sidecars { seen[sink, default: []].insert(SinkCopy(state: state, sha256: nil)) }
        }
        for v in existing.sidecarVariants ?? [] { seen[v.sink, default: []].insert(SinkCopy(state: v.state, sha256: v.actualSha256)) }
        var added: [IndexedRecord.SidecarVariant] = []
        for s in report.sidecars where seen[s.sink, default: []].insert(SinkCopy(state: s.state, sha256: s.actualSha256)).inserted {
            added.append(IndexedRecord.SidecarVariant(sink: s.sink, state: s.state, actualSha256: s.actualSha256,
                                                      sourcePath: p.sourcePath, firstIngested: now))
        }
        guard !newFiles.isEmpty || !added.isEmpty else { return nil }

        var updated = existing
        updated.merge(files: newFiles)
        if !added.isEmpty { updated.sidecarVariants = (existing.sidecarVariants ?? []) + added }
        updated.sidecars = updated.rolledUpSidecars(primary: existing.sidecars)
        if let blob = report.sha256, let i = updated.variants.firstIndex(where: { $0.blobId == blob }),
           !updated.variants[i].sourcePaths.contains(p.sourcePath) {
            updated.variants[i].sourcePaths.append(p.sourcePath)
        }
        return updated
    }
}

/// One copy's finding for one sink: its state and the digest of the bytes it found.
struct SinkCopy: Hashable {
    var state: SidecarState
    var sha256: ContentID?
}
