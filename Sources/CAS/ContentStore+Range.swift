import Ground
import LMDB

extension ContentStore {
    /// Streams bytes `range` of blob `id` into `sink`, straight from the map, touching only the
    /// chunks the range overlaps; not re-hashed (a part cannot be checked against the whole's
    /// ID), but every chunk read must have its recorded length (`cas.chunk.damaged`) and be
    /// present (`cas.chunk.missing`). A range that does not lie within the blob is
    /// `cas.range.invalid`. Returns the blob's whole size (`cas.notFound` when absent).
    @discardableResult
    public func read(_ id: ContentID, range: Range<Int64>, into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        try CASError.wrapping {
            try environment.read { txn in
                guard let record = try record(of: id, in: txn) else { throw CASError.notFound(id) }
                try read(record, of: id, range: range, in: txn, into: sink)
                return Int64(record.size)
            }
        }
    }

    /// Streams bytes `range` of the blob `record` describes (`id` names it in errors) from its
    /// chunks in `txn`: only the chunks the range overlaps, each present (`cas.chunk.missing`)
    /// and of its recorded length (`cas.chunk.damaged`); a range outside the blob is
    /// `cas.range.invalid`. Shared by stored blobs and staged ones (`StagedBlobSource`).
    func read(_ record: BlobRecord, of id: ContentID, range: Range<Int64>, in txn: Transaction,
              into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard range.lowerBound >= 0, range.upperBound <= Int64(record.size) else {
            throw CASError.rangeInvalid(blob: id, range: range, size: record.size)
        }
        let (lower, upper) = (range.lowerBound, range.upperBound)
        guard lower < upper else { return }
        let chunk = Int64(record.chunkSize)
        for index in Int(lower / chunk)...Int((upper - 1) / chunk) {
            let chunkID = record.chunks[index]
            guard let bytes = try chunkID.withUnsafeBytes({ try txn.get(chunks, $0) }) else {
                throw CASError.missingChunk(blob: id, index: index, chunk: chunkID)
            }
            guard bytes.count == record.length(ofChunk: index) else {
                throw CASError.damagedChunk(blob: id, index: index, chunk: chunkID)
            }
            let start = Int64(index) * chunk
            let from = Int(max(lower, start) - start), to = Int(min(upper, start + Int64(bytes.count)) - start)
            try sink(UnsafeRawBufferPointer(rebasing: bytes[from..<to]))
            txn.releasePages(of: bytes)
            environment.noteStreamed(to - from)
        }
    }

    /// Removes blob `id`'s record in one write transaction: the blob is gone for `get`, `audit`
    /// and listing at once; its chunks become garbage that `collectGarbage()` removes unless
    /// another blob shares them. Returns false when there was no such blob. The caller checks
    /// that no record of the archive names the blob.
    @discardableResult
    public func deleteBlob(_ id: ContentID) throws -> Bool {
        try CASError.wrapping { try environment.write { txn in try txn.delete(blobs, id) } }
    }

    /// Every blob with its size, in ID order; a record that does not decode is
    /// `cas.record.damaged` (the listing stops there: `audit` names it). Returns the count.
    @discardableResult
    public func forEachBlob(_ each: (ContentID, UInt64) throws -> Void) throws -> Int {
        try CASError.wrapping {
            try environment.read { txn in
                var count = 0
                try txn.scan(blobs) { key, value in
                    guard let id = ContentID(key) else { return .next }
                    guard let size = BlobRecord.size(of: value) else {
                        throw CASError.damagedRecord(blob: id, reason: "the record's header does not decode")
                    }
                    try each(id, size)
                    count += 1
                    return .next
                }
                return count
            }
        }
    }
}
