import CAS
import Ground
import LMDB
import Media
import Query
import Verify

extension Ingestor {
    /// Worker side: the thumbnail of the delivery file of a capture whose record is not in the
    /// archive yet (the caller checks; a re-ingest decodes nothing). Only a `new` record takes it: whether a
    /// worker saw a record of a later variant depends on timing, so a variant never takes one
    /// (the records stay the same whatever the number of workers or an interruption). Decoded from the
    /// very bytes staged under the delivery blob's ID when they are in memory, else from
    /// `source` (the snapshot's: the staged chunks read back from the store), else from the file. A picture
    /// that cannot be decoded gives an entry with a finding and no blob.
    func thumbnail(_ location: CaptureLocation, report: CaptureReport, staged: [String: StagedBlob],
                   source snapshotSource: (any ByteSource)? = nil) -> PreparedThumbnail? {
        guard options.thumbnails, !options.deferAnalyses, let source = report.sha256, report.recordId != nil else { return nil }
        let deliveryFile = location.deliveryFile
        let delivery = staged[deliveryFile].flatMap { $0.id == source ? $0.inlineBytes : nil }
        var entry = DerivedBlob(kind: "thumbnail", blobId: nil, size: nil, mediaType: nil, width: nil, height: nil,
                                sourceBlobId: source, tool: Thumbnail.tool, finding: nil)
        do {
            let media: any ByteSource = if let bytes = delivery { MemoryByteSource(bytes) }
                                        else if let snapshotSource, staged[deliveryFile]?.id == source { snapshotSource }
                                        else { try FileByteSource(path: deliveryFile) }
            // The still's planes, when parallax just decoded these very bytes (same SHA-256).
            let t = try Thumbnail.make(source: media, name: deliveryFile, contentID: source)
            let staged = try archive.store.stage(inline: t.jpeg)
            entry.blobId = staged.id
            entry.size = staged.size
            entry.mediaType = "image/jpeg"
            entry.width = t.width
            entry.height = t.height
            return PreparedThumbnail(entry: entry, staged: staged)
        } catch let e as MediaError {
            entry.finding = e.description
        } catch {
            entry.finding = "thumbnail.notStored: \(error)"
        }
        return PreparedThumbnail(entry: entry, staged: nil)
    }

    /// Writer side: stores the prepared thumbnail's blob (put-if-absent) and lists its entry in
    /// `record.derived` — never in `files` or `variants`. Returns true when the blob is new.
    func addThumbnail(_ p: PreparedCapture, to record: inout IndexedRecord, in txn: Transaction) throws -> Bool {
        guard let t = p.thumbnail, !(record.derived ?? []).contains(where: { $0.kind == t.entry.kind && $0.sourceBlobId == t.entry.sourceBlobId })
        else { return false }
        let isNew = try t.staged.map { try archive.store.commit($0, in: txn) } ?? false
        record.derived = (record.derived ?? []) + [t.entry]
        return isNew
    }
}
