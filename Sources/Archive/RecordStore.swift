import Foundation
import Ground

/// The archive's records and their index, wherever they live: one record per record ID, its
/// report kept apart by its SHA-256 (content-addressed, as blobs are), and the index entries
/// every query filters on. Two implementations: LMDB (`LMDBRecordStore` in ArchiveLMDB, over
/// its `RecordIndex` and the custody log in the archive's environment) and PostgreSQL
/// (`PostgresRecordStore` in ArchivePostgres); `Tests/ArchiveContract` runs one contract
/// suite against both (docs/archive.md).
///
/// `Record` is the index's record type (`Query.IndexedRecord`, which this target cannot
/// name: Query builds on it). Every read re-hashes what it returns: a record whose stored body
/// or report no longer matches its SHA-256 is refused with `index.record.damaged` naming it.
/// Errors are typed and conform to `NamedError` (the `index.*` codes of `QueryError`, the
/// store's own for its medium: `pg.*`, `index.storage`). Every call is its own transaction and
/// blocks its thread; implementations are safe to share between threads.
public protocol RecordStore<Record>: AnyObject, Sendable {
    associatedtype Record: Sendable

    /// Inserts `record` or replaces the record with its ID — its report stored by its SHA-256
    /// (put-if-absent), its index entries moved to its new values, its variants mapped to it —
    /// and appends `custody` in order, all in one transaction: the record and the events that
    /// describe it commit together or not at all. Returns the events appended.
    @discardableResult
    func put(_ record: Record, custody: [CustodyAppend]) throws -> [StoredCustodyEvent]

    /// Runs `body` in one write transaction (serialized with every other writer) and commits
    /// what it did — records, reports, custody events — together, or nothing when it throws.
    /// `body` must be re-runnable: a store may run it again (LMDB after growing its map).
    func write<R>(_ body: (any RecordWriter<Record>) throws -> R) throws -> R

    /// `blobs`' staged blobs committed (and `releasing` given up), then `body` with, for each of
    /// `staged`, whether it is new, and the record writer — all in **one** transaction, when this
    /// store and `blobs` keep their data in one (LMDB: the archive environment): one durable
    /// commit per ingest batch, the blobs and the records naming them visible together. Nil,
    /// with nothing written, when they do not (S3 blobs, a PostgreSQL index; the default): the
    /// caller then commits the blobs and the records in two steps.
    func write<R>(committing staged: [BlobStage], releasing: [BlobStage], in blobs: any BlobStaging,
                  _ body: ([Bool], any RecordWriter<Record>) throws -> R) throws -> R?

    /// Stores a report by its SHA-256 (put-if-absent; reports are never deleted: custody events
    /// name them). Returns its ID.
    @discardableResult
    func putReport(_ bytes: Data) throws -> ContentID

    /// The report stored under `id`, re-hashed (`index.record.damaged` naming `recordId` when
    /// it is missing or its bytes no longer match `id`).
    func report(_ id: ContentID, of recordId: ContentID) throws -> Data

    /// The record with this ID (its body and report re-hashed), or nil.
    func get(recordId: ContentID) throws -> Record?

    /// The records with these IDs, in the given order (absent IDs skipped); a damaged record is
    /// left out and passed to `damaged` with its `index.record.damaged` error.
    func records(_ ids: [ContentID], damaged: (ContentID, any NamedError) -> Void) throws -> [Record]

    /// Whether a record with this ID exists (nothing decoded).
    func contains(recordId: ContentID) throws -> Bool

    /// The record a delivery-file variant with this blob ID belongs to, or nil.
    func recordId(forVariant blobId: ContentID) throws -> ContentID?

    /// The IDs of records whose hex ID starts with `prefix` (1…64 lowercase hex digits), in
    /// order, at most `limit` (`index.recordId.invalid` for another prefix).
    func recordIds(withPrefix prefix: String, limit: Int) throws -> [ContentID]

    /// The records `filter` selects (docs/query.md): `matches` and `indeterminate`, IDs
    /// ascending, at most `limit` of each; bad filter values are `index.field.invalid`.
    func query(_ filter: RecordFilter, limit: Int?) throws -> QueryResult

    /// How many records `filter` selects (the numbers `query` would list).
    func count(_ filter: RecordFilter) throws -> QueryCount

    /// How many records the store holds.
    func recordCount() throws -> Int

    /// Removes a record with its index entries and variant mappings (its report stays: events
    /// name it); false when absent.
    @discardableResult
    func remove(recordId: ContentID) throws -> Bool

    /// Re-hashes every stored record — its body and the report the body names — in ID order,
    /// in one consistent read (a full scan: `audit`, not queries). A damaged record is listed
    /// with `index.record.damaged`, never thrown; only a failure of the medium throws.
    func audit() throws -> RecordAudit
}

extension RecordStore {
    /// Blobs and records in one transaction: not offered unless a store says so (nil).
    public func write<R>(committing staged: [BlobStage], releasing: [BlobStage], in blobs: any BlobStaging,
                         _ body: ([Bool], any RecordWriter<Record>) throws -> R) throws -> R? { nil }

    /// `put(record, custody: [])`.
    public func put(_ record: Record) throws { try put(record, custody: []) }

    /// Every match of `filter` (no limit).
    public func query(_ filter: RecordFilter) throws -> QueryResult { try query(filter, limit: nil) }
}
