import Foundation
import Ground
import Media
import Query
import Verify

extension Analyzer {
    /// Worker side of one record: read it (skipped unless it still needs analysing), its report
    /// and the blobs of its media files from the stores, add the media evidence to the report
    /// exactly as a default ingest's verification does (`CaptureVerifier.addingMedia`), and make
    /// the thumbnail of its first variant when it has none — from the planes parallax just
    /// decoded when the still is the report's own delivery file (one decode). Never throws.
    func prepare(_ id: ContentID) -> PreparedAnalysis {
        let record: IndexedRecord
        do {
            guard let r = try records.get(recordId: id), needsAnalysis(r) else { return .skipped(id) }
            record = r
        } catch {
            return .failed(id, error)
        }
        var out = PreparedAnalysis(recordId: id, basis: record)
        do {
            let report: CaptureReport
            do { report = try CaptureReport.decode(record.reportJSON) } catch {
                throw AnalysisError.reportUnreadable(recordId: id, reason: "\(error)")
            }
            var blobs = StoredBlobs(self.blobs, memoryLimit: options.memoryLimit)
            var sources: [String: any ByteSource] = [:]
            if report.error == nil {
                // The delivery file under the report's own path too: a report `reverify` rewrote
                // names its files under the snapshot root but keeps the path ingest gave it, and
                // `measureMedia` looks the delivery file up by that path (never read from disk here).
                if let delivery = report.sha256 {
                    sources[report.path] = try blobs.source(delivery)
                    out.analysedBlobs.append(delivery)
                }
                for f in report.files where CaptureVerifier.mediaRoles.contains(f.role) && sources[f.path] == nil {
                    // The delivery file and second view are decoded (read whole, proved against their
                    // IDs); ring frames and the audio master only give header facts.
                    sources[f.path] = try blobs.source(f.sha256, whole: f.role == .media || f.role == .secondView)
                    if !out.analysedBlobs.contains(f.sha256) { out.analysedBlobs.append(f.sha256) }
                }
            }
            let analysed = verifier.addingMedia(to: report, sources: sources)
            out.reportJSON = Data(analysed.jsonBytes())
            out.mediaFiles = analysed.media?.count ?? 0
            out.mediaErrors = analysed.media?.filter { $0.error != nil }.count ?? 0
            var notes = ["media facts of \(out.mediaFiles) file(s)" + (out.mediaErrors > 0 ? " (\(out.mediaErrors) unreadable)" : "")]
            if let r = analysed.streamedChunks?.recomputation { notes.append("streamed chunks \(r.state.rawValue)") }
            if analysed.parallax != nil { notes.append("parallax") }
            if let (entry, jpeg) = try thumbnail(of: record, report: analysed, blobs: &blobs) {
                out.thumbnail = entry
                out.thumbnailJPEG = jpeg
                if !out.analysedBlobs.contains(entry.sourceBlobId) { out.analysedBlobs.append(entry.sourceBlobId) }
                notes.append(entry.finding.map { "thumbnail not made: \($0)" } ?? "thumbnail \(entry.width ?? 0)x\(entry.height ?? 0)")
            }
            out.summary = notes.joined(separator: "; ")
        } catch {
            return .failed(id, error)
        }
        return out
    }

    /// The thumbnail a default ingest makes for a new record (`Ingestor.thumbnail`): of the
    /// first variant's delivery blob, decoded under the name ingest gave it, the same entry and
    /// the same JPEG bytes; nil when the record has no variant or already lists one. A picture
    /// that does not decode is an entry with a finding and no JPEG.
    func thumbnail(of record: IndexedRecord, report: CaptureReport, blobs: inout StoredBlobs) throws -> (DerivedBlob, [UInt8]?)? {
        guard let first = record.variants.first,
              !(record.derived ?? []).contains(where: { $0.kind == "thumbnail" && $0.sourceBlobId == first.blobId }) else { return nil }
        let name = record.analyses?.deliveryPath ?? (report.sha256 == first.blobId ? report.path : first.sourcePaths.first ?? "")
        var entry = DerivedBlob(kind: "thumbnail", blobId: nil, size: nil, mediaType: nil, width: nil, height: nil,
                                sourceBlobId: first.blobId, tool: Thumbnail.libavTool, finding: nil)
        let source = try blobs.source(first.blobId)
        do {
            let t = try Thumbnail.make(source: source, name: name, contentID: first.blobId)
            entry.blobId = ContentID.sha256(of: t.jpeg)
            entry.size = UInt64(t.jpeg.count)
            entry.mediaType = "image/jpeg"
            entry.tool = t.tool
            entry.width = t.width
            entry.height = t.height
            return (entry, t.jpeg)
        } catch {
            entry.finding = error.description
            return (entry, nil)
        }
    }
}
