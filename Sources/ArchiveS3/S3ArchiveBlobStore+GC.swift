import Archive
import Foundation
import Ground
import LMDB
import S3

/// `gc`'s report on the bucket (the `Archive` target's `ObjectGarbageReport`).
public typealias S3GarbageReport = ObjectGarbageReport

extension S3ArchiveBlobStore {
    /// Deletes every object under the blobs prefix that the ledger does not list (left by an
    /// ingest or put killed between upload and commit) and aborts every unfinished multipart
    /// upload — unless another live process is staging (its mark in `s3.pending` or
    /// `blob_pending`), then nothing.
    public func collectGarbage() throws -> S3GarbageReport {
        var report = S3GarbageReport()
        let sweep = try ledger.sweeping { () throws -> S3GarbageReport in
            var swept = S3GarbageReport()
            var orphans: [(ContentID, Int64)] = []
            _ = try objects.list { id, size in
                if try recorded(id) == nil { orphans.append((id, size)) }
            }
            for (id, size) in orphans {
                do {
                    if try objects.delete(id) {
                        swept.objectsRemoved += 1
                        swept.bytesRemoved += UInt64(max(0, size))
                    }
                } catch let e as S3Error where e.code == .accessDenied {
                    swept.objectsRetained += 1
                }
            }
            swept.uploadsAborted = try objects.abortStaleUploads(olderThan: 0)
            return swept
        }
        if let swept = sweep.result { report = swept } else { report.skippedBusy = true }
        report.pendingCleared = sweep.marksCleared
        return report
    }
}
