import Ground

extension BlobStore {
    public func holds(_ id: ContentID) throws -> Bool { try has(id) }

    public func audit(sample: Double, progress: ((Int, UInt64) -> Void)?) throws -> AuditReport {
        try auditBlobs(sample: sample, progress: progress)
    }

    public func collectObjectGarbage() throws -> ObjectGarbageReport? { nil }

    public func totals() throws -> (blobs: Int64, bytes: Int64) {
        var bytes: Int64 = 0
        let blobs = try forEachBlob { _, size in bytes += size }
        return (Int64(blobs), bytes)
    }

    /// `audit` over any blob store: every blob `forEachBlob` lists (`sample` = 1) or a random
    /// fraction of them (at least one when there are any), each read back and re-hashed
    /// (`check`); a problem is listed as `code: detail` (`s3.notFound: …`,
    /// `s3.integrity.mismatch: …`). LMDB's own `ContentStore.audit` also names chunks.
    public func auditBlobs(sample: Double = 1.0, progress: ((Int, UInt64) -> Void)? = nil) throws -> AuditReport {
        var report = AuditReport()
        var all: [ContentID] = []
        try forEachBlob { id, _ in all.append(id) }
        report.blobsInStore = all.count
        for id in AuditReport.sample(all, fraction: sample) {
            let check = try check(id)
            report.blobsChecked += 1
            report.bytesChecked += check.bytesRead
            if !check.isIntact {
                var damage = BlobDamage(blob: id)
                damage.problems = check.problems.map { $0.detail.hasPrefix($0.code) ? $0.detail : "\($0.code): \($0.detail)" }
                report.damaged.append(damage)
            }
            progress?(report.blobsChecked, report.bytesChecked)
        }
        return report
    }
}
