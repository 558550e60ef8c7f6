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
    /// file, the hashed descriptor for a larger one) for what the verifier must read. A file
    /// that changed while staged, or (a descriptor source) by the end of verification, fails
    /// the capture with `ingest.sourceChanged`. Never throws: a file that cannot be staged
    /// otherwise is left to the verifier, which reports it.
    func prepare(_ location: CaptureLocation) -> PreparedCapture {
        var staged: [String: BlobStage] = [:]
        var files: [String: CaptureSnapshot.File] = [:]
        var descriptors: [FileByteSource] = []
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
        for file in Self.filesToStage(location) {
            let limit = min(options.inlineFileLimit, budget)
            guard let opened = try? file.open() else { continue }
            let blob: BlobStage
            do { blob = try archive.blobs.stage(confirming: opened, inlineLimit: limit) } catch let change as FileChange {
                return failed(change)
            } catch where Self.isStorageFailure(error) {
                // The store itself failed: nothing of the capture is stored, the run stops.
                return storeFailed(error)
            } catch {
                continue
            }
            if blob.isInline { budget -= Int(blob.size) }
            staged[file.path] = blob
            bytes += blob.size
            if let inline = blob.inlineBytes {
                files[file.path] = .init(id: blob.id, source: MemoryByteSource(inline), bytes: inline)
            } else if file.path == location.deliveryFile || file.relative.depth == 1 {
                // Files the verifier reads (C2PA validation, bundles, libav's measurements of the
                // audio master and second view: the top of evidence/ and disclosure/): the
                // hashed descriptor. Ring frames are many and only hashed.
                files[file.path] = .init(id: blob.id, source: opened)
                descriptors.append(opened)
            } else {
                // The verifier needs only the digest: no descriptor held (a capture of many
                // large frames does not hold one per frame).
                files[file.path] = .init(id: blob.id, source: nil)
            }
        }
        if let stored = unchangedReport(location, staged: staged) {
            return PreparedCapture(location: location, sourcePath: Self.sourcePath(location), report: stored,
                                   staged: staged, bytes: bytes, unchanged: true)
        }
        let report = verifier.verify(CaptureSnapshot(location: location, files: files))
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
        // The descriptors read again by the verifier (and the thumbnail) are still the files
        // that were hashed.
        for d in descriptors {
            // (The thumbnail is staged inline: nothing of it is written before commit.)
            do { try d.confirmUnchanged() } catch { return failed(error) }
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
              let report = try? JSONDecoder.iso8601.decode(CaptureReport.self, from: record.reportJSON),
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
