import Ground

/// A random-access source over a blob staged by streaming (`ContentStore.stage(from:)`), read
/// back from the chunks the staging committed (invisible until `commit`, kept from `gc` by the
/// pending token): the bytes exactly as hashed and as they will be stored, without the file
/// they came from. Ingest's verifier reads a large file from here, so the dump file's bytes
/// are read once (issue 12). Each read checks every chunk it touches is present
/// (`cas.chunk.missing`) and of its recorded length (`cas.chunk.damaged`), named through
/// `ByteSourceError.storeFailed`.
public struct StagedBlobSource: RangeReadSource {
    public let store: ContentStore
    public let id: ContentID
    let record: BlobRecord
    public var count: Int64 { Int64(record.size) }

    /// The source over `staged`'s chunks; nil for an inline stage (its bytes are in memory,
    /// no chunk is written before `commit`).
    public init?(_ staged: StagedBlob, in store: ContentStore) {
        guard !staged.isInline, let record = staged.record.withUnsafeBytes({ try? BlobRecord(decoding: $0) }) else { return nil }
        self.store = store
        self.id = staged.id
        self.record = record
    }

    public func readRange(_ range: Range<Int64>, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try CASError.wrapping { try store.environment.read { txn in try store.read(record, of: id, range: range, in: txn, into: sink) } }
    }
}

extension ContentStore {
    /// A source over exactly the bytes `staged` holds: memory for an inline stage, the staged
    /// chunks read back from the store for a streamed one (`StagedBlobSource`). Nil only if
    /// the stage's own record does not decode (it was encoded by `stage`).
    public func source(of staged: StagedBlob) -> (any ByteSource)? {
        if let bytes = staged.inlineBytes { return MemoryByteSource(bytes) }
        return StagedBlobSource(staged, in: self)
    }
}
