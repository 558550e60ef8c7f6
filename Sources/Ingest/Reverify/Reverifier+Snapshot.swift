import Archive
import CaptureFormat
import Ground
import Query
import Verify

extension Reverifier {
    /// Where a re-verified capture is said to sit. Never on disk: every file of the snapshot is
    /// a stored blob and every presence or listing question is answered by the record's stored
    /// paths, so nothing is looked up under this root (the paths only name files in the report,
    /// relative to it as at ingest: `capture/evidence/<name>`).
    public static let snapshotRoot = "/exhibit-reverify/dump"

    /// The snapshot of `record`'s `variant` from the CAS alone: the delivery file and each
    /// primary stored file as a `StoredBlobSource` (proved to hash to its ID first: a damaged or
    /// missing blob is the record's `cas.…` error), its ID as digest, and a listing of the
    /// stored relative paths (a path the listing refuses — `..`, empty components — is left out,
    /// as the exported folder left it out).
    func snapshot(of record: IndexedRecord, variant: IndexedRecord.Variant) throws -> CaptureSnapshot {
        let folder = Self.snapshotRoot + "/capture"
        let name = variant.sourcePaths.first.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "capture.bin"
        // A record without stored files was a loose file: named relative to the dump, as at ingest.
        let loose = record.files.isEmpty
        let location = CaptureLocation(deliveryFile: (loose ? Self.snapshotRoot : folder) + "/" + name,
                                       captureFolder: loose ? nil : folder, dumpRoot: Self.snapshotRoot)
        var sources: [ContentID: StoredBlobSource] = [:]
        func source(_ id: ContentID) throws -> StoredBlobSource {
            if let s = sources[id] { return s }
            let s = try StoredBlobSource.verified(id, in: archive.blobs)
            sources[id] = s
            return s
        }
        var listing = CaptureListing()
        var files: [String: CaptureSnapshot.File] = [:]
        let delivery = try source(variant.blobId)
        listing.addFile(name, size: delivery.count)
        files[location.deliveryFile] = .init(id: variant.blobId, source: delivery)
        for stored in record.primaryFiles {
            let s = try source(stored.blobId)
            guard listing.addFile(stored.relativePath, size: s.count) else { continue }
            files[folder + "/" + stored.relativePath] = .init(id: stored.blobId, source: s)
        }
        return CaptureSnapshot(location: location, files: files, listing: loose ? nil : listing)
    }
}

extension CaptureReport {
    /// Notes about a sink's entry that the archive cannot find again: a symlink is never
    /// followed or stored, so from the store that sink is only absent.
    static let unstoredSymlinkNotes: Set<String> = ["symlink", "symlink-escapes-dump"]

    /// Keeps the walk's finding that the store cannot reproduce (issue 12 (g)): a sink that
    /// was a symlink at ingest (`stored`, the record's report) and is found again in the same
    /// state with nothing there keeps its `symlink` / `symlink-escapes-dump` note, so the
    /// re-verified report still says why the sink is missing.
    mutating func keepUnstoredSymlinkNotes(of stored: CaptureReport) {
        for i in sidecars.indices where sidecars[i].actualSha256 == nil {
            guard let before = stored.sidecars.first(where: { $0.sink == sidecars[i].sink }), before.state == sidecars[i].state,
                  before.actualSha256 == nil else { continue }
            let kept = before.notes.filter { Self.unstoredSymlinkNotes.contains($0) && !sidecars[i].notes.contains($0) }
            sidecars[i].notes += kept
        }
    }
}
