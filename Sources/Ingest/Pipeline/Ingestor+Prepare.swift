import Archive
import Foundation
import Ground
import Query
import Verify

extension Ingestor {
    /// Worker side of one capture: stage the delivery file and every regular file of the
    /// capture's `evidence/` and `disclosure/` folders in the CAS (one read and hash each,
    /// each opened by the descriptor walk), then verify the capture's snapshot: each file's
    /// CAS ID as its digest, and a source over exactly the staged bytes (memory for an inline
    /// file, the staged chunks read back from the store for a larger one) for what the
    /// verifier must read: each dump file is read once. A file that changed while staged fails
    /// the capture with `ingest.sourceChanged`. Never throws: a file that cannot be staged
    /// otherwise is left to the verifier, which reports it.
    func prepare(_ location: CaptureLocation) -> PreparedCapture {
        var staged: [String: BlobStage] = [:]
        var files: [String: CaptureSnapshot.File] = [:]
        var bytes: UInt64 = 0
        var budget = options.inlineCaptureBudget
        func failed(_ change: FileChange) -> PreparedCapture {
            var report = CaptureReport(path: location.deliveryFile, kind: .unknown, integrity: .malformed, timestamp: .init(state: "absent"))
            let error = IngestError.changed(change)
            report.error = .init(code: error.code, message: error.description)
            return PreparedCapture(location: location, sourcePath: Self.sourcePath(location), report: report,
                                   staged: staged, bytes: bytes, failure: error)
        }
        func storeFailed(_ error: any Error) -> PreparedCapture {
            var p = PreparedCapture(location: location, sourcePath: Self.sourcePath(location),
                                    report: CaptureReport(path: location.deliveryFile, kind: .unknown, integrity: .malformed,
                                                          timestamp: .init(state: "absent")),
                                    staged: staged, bytes: bytes)
            p.storageFailure = error
            return p
        }
        let walk = Self.walk(location)
        var unread: [String: FileOpenError] = [:]
        for file in walk.files {
            let limit = min(options.inlineFileLimit, budget)
            let opened: FileByteSource
            do { opened = try file.open() } catch {
                unread[file.path] = error
                continue
            }
            let blob: BlobStage
            do { blob = try archive.blobs.stage(confirming: opened, inlineLimit: limit) } catch let change as FileChange {
                return failed(change)
            } catch where Self.isStorageFailure(error) {
                // The store itself failed: nothing of the capture is stored, the run stops.
                return storeFailed(error)
            } catch {
                unread[file.path] = .cannotOpen(path: file.path, errno: Errno(rawValue: (error as? any BlobStoreFailure)?.fileFailure?.errno ?? Errno.ioError.rawValue))
                continue
            }
            if blob.isInline { budget -= Int(blob.size) }
            staged[file.path] = blob
            bytes += blob.size
            if let inline = blob.inlineBytes {
                files[file.path] = .init(id: blob.id, source: MemoryByteSource(inline), bytes: inline)
            } else {
                // Streamed: the store's copy read back (LMDB: the staged chunks; S3: ranged GETs), so
                // the dump file's bytes are read once, by the staging, and the verifier (C2PA,
                // bundles, libav) reads exactly what is stored. No descriptor is held: the file
                // was confirmed unchanged when staged and is not read again.
                do { files[file.path] = .init(id: blob.id, source: try archive.blobs.source(of: blob)) } catch {
                    return storeFailed(error)
                }
            }
        }
        if let stored = unchangedReport(location, staged: staged) {
            return PreparedCapture(location: location, sourcePath: Self.sourcePath(location), report: stored,
                                   staged: staged, bytes: bytes, unchanged: true)
        }
        // Presence and listings from the walk that found these files, never asked again.
        let folder = (location.captureFolder ?? "") + "/"
        let listing = walk.listing(stagedSizes: Dictionary(staged.compactMap { path, blob in
            path.hasPrefix(folder) ? (String(path.dropFirst(folder.count)), Int64(blob.size)) : nil
        }, uniquingKeysWith: { a, _ in a }))
        let report = verifier.verify(CaptureSnapshot(location: location, files: files, listing: listing, unread: unread))
        // One read: is the record in the archive already? If not (the usual case), the worker
        // makes what only a new record needs — its thumbnail (from the snapshot's delivery
        // source) and its stored report JSON — so the single writer does not; a present record
        // (a re-ingest) gets neither.
        let present: Bool? = report.recordId.flatMap { try? archive.records.contains(recordId: $0) }
        let thumb: PreparedThumbnail?
        do {
            thumb = present == false
                ? try thumbnail(location, report: report, staged: staged, source: files[location.deliveryFile]?.source) : nil
        } catch {
            return storeFailed(error)
        }
        return PreparedCapture(location: location, sourcePath: Self.sourcePath(location), report: report,
                               staged: staged, bytes: bytes,
                               reportJSON: present == true ? nil : IndexedRecord.encode(report), thumbnail: thumb)
    }

    /// The stored report when this capture is already in the archive exactly as found: the
    /// delivery file's blob is a variant whose stored report describes that very blob, the
    /// variant already lists this source path, and every staged file of the capture folder is
    /// among the record's files under the same relative path and digest. Then verifying again
    /// could only repeat the stored findings (trust and time are `reverify`'s job), so a
    /// re-ingest or a resumed ingest skips verification and media work. Anything else — a new
    /// or changed file, a new path, another variant — is verified as usual.
    func unchangedReport(_ location: CaptureLocation, staged: [String: BlobStage]) -> CaptureReport? {
        guard let delivery = staged[location.deliveryFile]?.id,
              let recordId = try? archive.records.recordId(forVariant: delivery),
              let record = try? archive.records.get(recordId: recordId),
              record.variants.contains(where: { $0.blobId == delivery && $0.sourcePaths.contains(Self.sourcePath(location)) }),
              let report = try? CaptureReport.decode(record.reportJSON),
              report.sha256 == delivery else { return nil }
        let stored = Set(record.files.map { FileKey(blobId: $0.blobId, relativePath: $0.relativePath) })
        let folder = (location.captureFolder ?? "") + "/"
        for (path, blob) in staged where path != location.deliveryFile {
            guard path.hasPrefix(folder), stored.contains(FileKey(blobId: blob.id, relativePath: String(path.dropFirst(folder.count)))) else { return nil }
        }
        return report
    }

    /// Bytes a run over `captures` will read (every file staged), for a progress bar.
    public static func estimatedBytes(_ captures: [CaptureLocation]) -> UInt64 {
        captures.reduce(UInt64(0)) { total, c in
            filesToStage(c).reduce(total) { sum, file in sum + (file.status.map { UInt64(max(0, $0.size)) } ?? 0) }
        }
    }

    /// `dump-root-name/relative/path` of the delivery file.
    static func sourcePath(_ c: CaptureLocation) -> String {
        let rootName = c.dumpRoot.split(separator: "/").last.map(String.init) ?? ""
        if c.deliveryFile.hasPrefix(c.dumpRoot + "/") {
            return rootName + "/" + c.deliveryFile.dropFirst(c.dumpRoot.count + 1)
        }
        return c.deliveryFile.split(separator: "/").last.map(String.init) ?? c.deliveryFile
    }
}
