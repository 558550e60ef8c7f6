import Archive
import Crypto
import Foundation
import Ground
import LMDB

extension ContentStore {
    /// All blob IDs, in order.
    public func blobIDs() throws -> [ContentID] {
        try CASError.wrapping {
            try environment.read { txn in
                var ids: [ContentID] = []
                try txn.scan(blobs) { key, _ in
                    if let id = ContentID(key) { ids.append(id) }
                    return .next
                }
                return ids
            }
        }
    }

    /// Re-hashes every blob (`sample` = 1) or a random fraction of them (at least one when the
    /// store is not empty), and reports missing and damaged chunks by blob. `progress` receives
    /// (blobs done, bytes done) after each blob.
    public func audit(sample: Double = 1.0, progress: ((Int, UInt64) -> Void)? = nil) throws -> AuditReport {
        var report = AuditReport()
        let all = try blobIDs()
        report.blobsInStore = all.count
        let ids = AuditReport.sample(all, fraction: sample)
        for id in ids {
            let (damage, bytes) = try auditBlob(id)
            report.blobsChecked += 1
            report.bytesChecked += bytes
            if !damage.isClean { report.damaged.append(damage) }
            progress?(report.blobsChecked, report.bytesChecked)
        }
        return report
    }

    /// Checks one blob: every chunk present, of the right length, hashing to its ID; the
    /// whole hashing to the blob ID. Returns the damage found and the bytes read.
    public func auditBlob(_ id: ContentID) throws -> (BlobDamage, UInt64) {
        var damage = BlobDamage(blob: id)
        var bytesRead: UInt64 = 0
        do {
            try environment.read { txn in
                let record: BlobRecord
                do {
                    guard let r = try self.record(of: id, in: txn) else {
                        damage.problems.append(CASError.notFound(id).code)
                        return
                    }
                    record = r
                } catch let e as CASError {
                    damage.problems.append(e.description)
                    return
                }
                let blobHash = MessageDigest(.sha256)
                var whole = true
                for (index, chunkID) in record.chunks.enumerated() {
                    guard let bytes = try chunkID.withUnsafeBytes({ try txn.get(chunks, $0) }) else {
                        damage.missingChunks.append(.init(index: index, id: chunkID))
                        whole = false
                        continue
                    }
                    bytesRead += UInt64(bytes.count)
                    let actual = Self.hash(batch: bytes, chunkSize: bytes.count, lengths: [bytes.count], blob: blobHash)[0]
                    txn.releasePages(of: bytes)  // an audit of the whole store stays bounded in RSS
                    environment.noteStreamed(bytes.count)
                    if actual != chunkID || bytes.count != record.length(ofChunk: index) {
                        damage.damagedChunks.append(.init(index: index, id: chunkID))
                        whole = false
                    }
                }
                if whole, let actual = ContentID(digest: blobHash.finalize()), actual != id {
                    damage.problems.append(CASError.blobMismatch(blob: id, actual: actual).description)
                }
            }
        } catch let e as LMDBError {
            damage.problems.append(CASError.storage(e).description)
        }
        return (damage, bytesRead)
    }
}
