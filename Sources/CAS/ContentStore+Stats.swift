import Archive
import Foundation
import Ground
import LMDB

/// The environment's upkeep and figures (what `gc` sweeps first and `stats` prints).
extension ContentStore: ArchiveAdministration {
    public func statistics() throws -> StoreStats { try stats() }
}

extension ContentStore {
    public func stats() throws -> StoreStats {
        var s = StoreStats()
        s.chunkSize = chunkSize
        try CASError.wrapping {
            try environment.read { txn in
                try txn.scan(blobs) { _, value in
                    s.blobs += 1
                    if let size = BlobRecord.size(of: value) {
                        s.logicalBytes += size
                        s.chunkReferences += max(0, (value.count - BlobRecord.headerSize) / ContentID.byteCount)
                    }
                    return .next
                }
                try txn.scan(chunks) { _, value in
                    s.chunks += 1
                    s.storedBytes += UInt64(value.count)
                    return .next
                }
                s.pendingPuts = try txn.count(pending)
            }
        }
        let info = environment.info()
        s.mapSize = info.mapSize
        s.mapUsed = info.usedBytes
        s.pageSize = info.pageSize
        return s
    }

    /// Deletes chunks no blob references (left by puts that were killed), unless a put is
    /// still running in a live process. One write transaction.
    public func collectGarbage() throws -> GarbageReport {
        var report = GarbageReport()
        try CASError.wrapping {
            try environment.write { txn in
                report = GarbageReport()
                var dead: [[UInt8]] = []
                try txn.scan(pending) { key, value in
                    let pid = value.count >= 4 ? Int32(bitPattern: value.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) : 0
                    if pid > 0 && kill(pid, 0) == 0 && pid != getpid() { report.skippedBusy = true; return .stop }
                    dead.append(Array(key))
                    return .next
                }
                if report.skippedBusy { return }
                var referenced = Set<ContentID>()
                try txn.scan(blobs) { _, value in
                    guard let record = try? BlobRecord(decoding: value) else {
                        report.skippedDamaged = true  // never collect what a damaged record may reference
                        return .stop
                    }
                    referenced.formUnion(record.chunks)
                    return .next
                }
                if report.skippedDamaged { return }
                var orphans: [(ContentID, Int)] = []
                try txn.scan(chunks) { key, value in
                    if let id = ContentID(key), !referenced.contains(id) { orphans.append((id, value.count)) }
                    return .next
                }
                for (id, n) in orphans {
                    try txn.delete(chunks, id)
                    report.chunksRemoved += 1
                    report.bytesRemoved += UInt64(n)
                }
                for key in dead { try txn.delete(pending, key) }
                report.pendingCleared = dead.count
            }
        }
        return report
    }
}
