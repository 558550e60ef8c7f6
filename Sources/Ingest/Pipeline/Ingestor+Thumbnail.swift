import Archive
import Ground
import Media
import Query
import Verify

extension Ingestor {
    /// Worker side: the thumbnail of the delivery file of a capture whose record is not in the
    /// archive yet (the caller checks; a re-ingest decodes nothing). Only a `new` record takes it: whether a
    /// worker saw a record of a later variant depends on timing, so a variant never takes one
    /// (the records stay the same whatever the number of workers or an interruption). Decoded from the
    /// very bytes staged under the delivery blob's ID when they are in memory, else from
    /// `source` (the snapshot's: the store's copy read back), else from the file. A picture
    /// that cannot be decoded gives an entry with a finding and no blob; the blob store failing
    /// to stage it (S3 unreachable, LMDB failure) is thrown: the run stops, no finding recorded.
    func thumbnail(_ location: CaptureLocation, report: CaptureReport, staged: [String: BlobStage],
                   source snapshotSource: (any ByteSource)? = nil) throws -> PreparedThumbnail? {
        guard options.thumbnails, !options.deferAnalyses, let source = report.sha256, report.recordId != nil else { return nil }
        let deliveryFile = location.deliveryFile
        let delivery = staged[deliveryFile].flatMap { $0.id == source ? $0.inlineBytes : nil }
        var entry = DerivedBlob(kind: "thumbnail", blobId: nil, size: nil, mediaType: nil, width: nil, height: nil,
                                sourceBlobId: source, tool: Thumbnail.libavTool, finding: nil)
        do {
            let media: any ByteSource = if let bytes = delivery { MemoryByteSource(bytes) }
                                        else if let snapshotSource, staged[deliveryFile]?.id == source { snapshotSource }
                                        else { try FileByteSource(path: deliveryFile) }
            // The still's planes, when parallax just decoded these very bytes (same SHA-256).
            let t = try Thumbnail.make(source: media, name: deliveryFile, contentID: source)
            let staged = try archive.blobs.stage(inline: t.jpeg)
            entry.blobId = staged.id
            entry.size = staged.size
            entry.mediaType = "image/jpeg"
            entry.tool = t.tool
            entry.width = t.width
            entry.height = t.height
            return PreparedThumbnail(entry: entry, staged: staged)
        } catch let e as MediaError {
            entry.finding = e.description
        } catch where Self.isStorageFailure(error) {
            throw error
        } catch {
            entry.finding = "thumbnail.notStored: \(error)"
        }
        return PreparedThumbnail(entry: entry, staged: nil)
    }

    /// Writer side: lists the prepared thumbnail's entry in `record.derived` — never in
    /// `files` or `variants` (its blob was made durable with the capture's other blobs).
    func addThumbnail(_ p: PreparedCapture, to record: inout IndexedRecord) {
        guard let t = p.thumbnail, !(record.derived ?? []).contains(where: { $0.kind == t.entry.kind && $0.sourceBlobId == t.entry.sourceBlobId })
        else { return }
        record.derived = (record.derived ?? []) + [t.entry]
    }
}
