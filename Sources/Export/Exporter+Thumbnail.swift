import Archive
import Ground
import Media
import Query

extension Exporter {
    /// Thumbnails decoded with libavcodec (the Media module): the first picture of a still or a
    /// video, scaled to at most 240 px wide, re-encoded as JPEG for a `data:` URI.
    public static let mediaThumbnailer: Thumbnailer = { path, _ in
        guard let t = try? Thumbnail.make(path: path, maxWidth: 240) else { return nil }
        return ("image/jpeg", t.jpeg)
    }

    /// Each record's preview for report.html and a line saying where it came from: the
    /// thumbnail stored at ingest (`IndexedRecord.derived`, read from the CAS and re-hashed)
    /// when there is one for the primary delivery file, else one decoded now by `thumbnailer`
    /// from the delivery file in the bag. Never a payload file: derived blobs are not evidence.
    func thumbnails(_ records: [IndexedRecord], _ plans: [PayloadPlan], _ bag: BagWriter)
        -> (images: [String: (mime: String, bytes: [UInt8])], notes: [String: String]) {
        var images: [String: (mime: String, bytes: [UInt8])] = [:]
        var notes: [String: String] = [:]
        for (record, plan) in zip(records, plans) {
            let primary = plan.entries.first { $0.role == .media }?.blobId
            if let (entry, bytes) = storedThumbnail(record, primaryBlob: primary) {
                images[record.recordId.hex] = (entry.mediaType ?? "image/jpeg", bytes)
                notes[record.recordId.hex] = "derived preview, not evidence: thumbnail \(entry.blobId?.hex ?? "") "
                    + "(\(entry.width ?? 0)×\(entry.height ?? 0)) made at ingest from \(entry.sourceBlobId) by \(entry.tool); not in the bag's payload"
                continue
            }
            guard let thumbnailer, let media = Self.deliveryFile(plan, bag) else { continue }
            let kind = media.lowercased().hasSuffix(".mp4") || media.lowercased().hasSuffix(".mov") ? "video" : "still"
            if let t = thumbnailer(media, kind) {
                images[record.recordId.hex] = t
                notes[record.recordId.hex] = "derived preview, not evidence: decoded at export from the delivery file in the bag"
            } else if let finding = (record.derived ?? []).first(where: { $0.kind == "thumbnail" && $0.finding != nil })?.finding {
                // No picture to show (a sound, a document, …): say why, as ingest found it.
                notes[record.recordId.hex] = "none: \(finding)"
            }
        }
        return (images, notes)
    }

    /// The record's stored thumbnail of `primaryBlob` (else of any variant), read from the CAS
    /// (verified against its ID); nil when there is none or it cannot be read.
    func storedThumbnail(_ record: IndexedRecord, primaryBlob: ContentID?) -> (DerivedBlob, [UInt8])? {
        let candidates = (record.derived ?? []).filter { $0.kind == "thumbnail" && $0.blobId != nil }
        let ordered = candidates.filter { $0.sourceBlobId == primaryBlob } + candidates.filter { $0.sourceBlobId != primaryBlob }
        for entry in ordered {
            guard let id = entry.blobId, let bytes = try? store.bytes(of: id) else { continue }
            return (entry, bytes)
        }
        return nil
    }
}
