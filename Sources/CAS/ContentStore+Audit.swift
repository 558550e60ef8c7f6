import Crypto
import Foundation
import Ground
import LMDB

/// What an audit found wrong with one blob.
public struct BlobDamage: Equatable, Sendable, Codable {
    public struct Chunk: Equatable, Sendable, Codable {
        public let index: Int
        public let id: ContentID
        public init(index: Int, id: ContentID) {
            self.index = index
            self.id = id
        }
    }
    public let blob: ContentID
    public var missingChunks: [Chunk] = []
    public var damagedChunks: [Chunk] = []
    /// The record failed to decode, the blob hash differs, or LMDB reported corruption.
    public var problems: [String] = []

    public init(blob: ContentID) { self.blob = blob }
    public var isClean: Bool { missingChunks.isEmpty && damagedChunks.isEmpty && problems.isEmpty }
}

/// The result of an audit.
public struct AuditReport: Equatable, Sendable {
    public var blobsInStore = 0
    public var blobsChecked = 0
    public var bytesChecked: UInt64 = 0
    public var damaged: [BlobDamage] = []
    public var isClean: Bool { damaged.isEmpty }

    /// `fraction` of `ids` (all of them at 1), chosen at random, at least one when there are
    /// any, in ID order.
    public static func sample(_ ids: [ContentID], fraction: Double) -> [ContentID] {
        guard fraction < 1.0 else { return ids }
        let keep = ids.isEmpty ? 0 : max(1, Int((Double(ids.count) * max(0, fraction)).rounded(.up)))
        return Array(ids.shuffled().prefix(keep)).sorted()
    }
}

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
