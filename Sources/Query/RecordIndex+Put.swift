import LMDB

extension RecordIndex {
    /// Inserts `record`, or replaces the stored record with the same ID: index entries the
    /// previous version had and this one lacks are deleted (so a changed integrity, trust or
    /// sidecar state moves the record between index entries), new ones are added, and every
    /// variant's blob ID maps to the record. A variant the new version no longer lists loses its
    /// mapping. Runs in the caller's write transaction; re-runnable.
    public func put(_ record: IndexedRecord, in txn: Transaction) throws {
        guard let id = RecordID(hex: record.recordId) else { throw QueryError.invalidRecordId(record.recordId) }
        var variantIds: [RecordID] = []
        for v in record.variants {
            guard let b = RecordID(hex: v.blobId) else { throw QueryError.invalidField(name: "variants.blobId", value: v.blobId) }
            variantIds.append(b)
        }
        let newEntries = try IndexEntry.entries(of: record, id: id)
        let body = try RecordBody.encode(record)
        try QueryError.wrapping {
            var oldEntries = Set<IndexEntry>()
            var oldVariants: [RecordID] = []
            var oldTime: String? = nil
            if let old = try get(id, in: txn) {
                oldEntries = (try? IndexEntry.entries(of: old, id: id)) ?? []
                oldVariants = old.variants.compactMap { RecordID(hex: $0.blobId) }
                oldTime = old.captureTime
            }
            for e in oldEntries.subtracting(newEntries) { try txn.delete(database(e.index), e.key) }
            for e in newEntries.subtracting(oldEntries) { try txn.put(database(e.index), e.key, [UInt8]()) }
            try IndexCounters.apply(old: IndexCounters.contributions(oldEntries, captureTime: oldEntries.isEmpty ? nil : oldTime),
                                    new: IndexCounters.contributions(newEntries, captureTime: record.captureTime), counts, in: txn)
            let idBytes = id.bytes
            for b in Set(oldVariants).subtracting(variantIds) {
                if try txn.value(variants, b.bytes) == idBytes { try txn.delete(variants, b.bytes) }
            }
            for b in variantIds { try txn.put(variants, b.bytes, idBytes) }
            try txn.put(records, idBytes, body)
        }
    }

    /// `put` in a transaction of its own.
    public func put(_ record: IndexedRecord) throws {
        try QueryError.wrapping { try environment.write { try put(record, in: $0) } }
    }

    /// Removes a record, its index entries and its variant mappings; false when absent.
    @discardableResult
    public func remove(recordId: String, in txn: Transaction) throws -> Bool {
        guard let id = RecordID(hex: recordId) else { throw QueryError.invalidRecordId(recordId) }
        return try QueryError.wrapping {
            guard let old = try get(id, in: txn) else { return false }
            let entries = (try? IndexEntry.entries(of: old, id: id)) ?? []
            for e in entries { try txn.delete(database(e.index), e.key) }
            try IndexCounters.apply(old: IndexCounters.contributions(entries, captureTime: entries.isEmpty ? nil : old.captureTime),
                                    new: [:], counts, in: txn)
            let idBytes = id.bytes
            for v in old.variants {
                guard let b = RecordID(hex: v.blobId) else { continue }
                if try txn.value(variants, b.bytes) == idBytes { try txn.delete(variants, b.bytes) }
            }
            return try txn.delete(records, idBytes)
        }
    }
}
