import Ground
import LMDB
import Query

extension RecordIndex {
    /// Inserts `record`, or replaces the stored record with the same ID: index entries the
    /// previous version had and this one lacks are deleted (so a changed integrity, trust or
    /// sidecar state moves the record between index entries), new ones are added, and every
    /// variant's blob ID maps to the record. A variant the new version no longer lists loses its
    /// mapping. Runs in the caller's write transaction; re-runnable.
    public func put(_ record: IndexedRecord, in txn: Transaction) throws {
        let id = record.recordId
        let variantIds = record.variants.map(\.blobId)
        let newEntries = try IndexEntry.entries(of: record)
        let body = try RecordBody.encode(record)
        try QueryError.wrapping {
            var oldEntries = Set<IndexEntry>()
            var oldVariants: [ContentID] = []
            var oldTime: String? = nil
            if let old = try get(id, in: txn) {
                oldEntries = (try? IndexEntry.entries(of: old)) ?? []
                oldVariants = old.variants.map(\.blobId)
                oldTime = old.captureTime
            }
            for e in oldEntries.subtracting(newEntries) { try txn.delete(database(e.index), e.key) }
            for e in newEntries.subtracting(oldEntries) { try txn.put(database(e.index), e.key, [UInt8]()) }
            try IndexCounters.apply(old: IndexCounters.contributions(oldEntries, captureTime: oldEntries.isEmpty ? nil : oldTime),
                                    new: IndexCounters.contributions(newEntries, captureTime: record.captureTime), counts, in: txn)
            let idBytes = id.bytes
            for b in Set(oldVariants).subtracting(variantIds) {
                if try txn.value(variants, b) == idBytes { try txn.delete(variants, b) }
            }
            for b in variantIds { try txn.put(variants, b, idBytes) }
            try putReport(record.reportJSON, in: txn)
            try txn.put(records, idBytes, body)
        }
    }

    /// `put` in a transaction of its own.
    public func put(_ record: IndexedRecord) throws {
        try QueryError.wrapping { try environment.write { try put(record, in: $0) } }
    }

    /// Removes a record, its index entries and its variant mappings; false when absent.
    @discardableResult
    public func remove(recordId id: ContentID, in txn: Transaction) throws -> Bool {
        try QueryError.wrapping {
            guard let old = try get(id, in: txn) else { return false }
            let entries = (try? IndexEntry.entries(of: old)) ?? []
            for e in entries { try txn.delete(database(e.index), e.key) }
            try IndexCounters.apply(old: IndexCounters.contributions(entries, captureTime: entries.isEmpty ? nil : old.captureTime),
                                    new: [:], counts, in: txn)
            let idBytes = id.bytes
            for v in old.variants where try txn.value(variants, v.blobId) == idBytes {
                try txn.delete(variants, v.blobId)
            }
            return try txn.delete(records, idBytes)
        }
    }
}
