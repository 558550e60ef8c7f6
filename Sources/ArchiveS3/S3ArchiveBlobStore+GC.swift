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
    /// `s3.pending` entries of processes that are gone.
    public var pendingCleared = 0
    /// True when another live process was staging: nothing was deleted.
    public var skippedBusy = false
}

extension S3ArchiveBlobStore {
    /// Deletes every object under the blobs prefix that the ledger does not list (left by an
    /// ingest or put killed between upload and commit) and aborts every unfinished multipart
    /// upload — unless another live process is staging (`s3.pending`), then nothing.
    public func collectGarbage() throws -> S3GarbageReport {
        var report = S3GarbageReport()
        let me = UInt32(getpid())
        var dead: [[UInt8]] = []
        try environment.read { txn in
            try txn.scan(pending) { key, value in
                guard value.count >= 4 else { dead.append(Array(key)); return .next }
                let pid = UInt32(bigEndian: value.loadUnaligned(as: UInt32.self))
                if pid == me { return .next }
                if pid > 0 && kill(pid_t(pid), 0) == 0 { report.skippedBusy = true; return .stop }
                dead.append(Array(key))
                return .next
            }
        }
        if report.skippedBusy { return report }
        if !dead.isEmpty {
            try environment.write { txn in for k in dead { _ = try txn.delete(pending, k) } }
            report.pendingCleared = dead.count
        }
        var orphans: [(ContentID, Int64)] = []
        _ = try objects.list { id, size in
            if try recorded(id) == nil { orphans.append((id, size)) }
        }
        for (id, size) in orphans {
            do {
                if try objects.delete(id) {
                    report.objectsRemoved += 1
                    report.bytesRemoved += UInt64(max(0, size))
                }
            } catch let e as S3Error where e.code == .accessDenied {
                report.objectsRetained += 1
            }
        }
        report.uploadsAborted = try objects.abortStaleUploads(olderThan: 0)
        return report
    }
}
