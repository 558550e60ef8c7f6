import Archive
import Foundation
import Ground
import LMDB
import S3

/// What `gc` did to an S3-backed archive's bucket.
public struct S3GarbageReport: Sendable, Equatable {
    /// Objects under the prefix the ledger does not list, deleted, and their bytes.
    public var objectsRemoved = 0
    public var bytesRemoved: UInt64 = 0
    /// Unlisted objects a retention (Object Lock) kept.
    public var objectsRetained = 0
    /// Multipart uploads never completed, aborted.
    public var uploadsAborted = 0
    /// Staging marks of processes that are gone (`s3.pending`) or expired (`blob_pending`).
    public var pendingCleared = 0
    /// True when another live process was staging: nothing was deleted.
    public var skippedBusy = false
}

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
