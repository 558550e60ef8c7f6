import Archive
import Foundation
import Ground
import LMDB
import S3

/// An archive's blobs in an S3 bucket (`init --blobs s3://…`, docs/archive.md): the objects
/// are `S3BlobStore`'s (one immutable object per blob, put-if-absent, every GET re-hashed), and
/// a `BlobLedger` keeps the **blob ledger** — the blobs the archive holds (ID → size), written
/// by `commit` after the objects are durable: the archive directory's LMDB environment
/// (`s3.blobs`), or with a PostgreSQL index the index every machine shares (`blob_ledger`).
/// The ledger is what `get`, `stat`, `audit` and `gc` go by: an object it does not list
/// (uploaded by an ingest killed before its commit) is invisible and removed by `gc`; a listed
/// blob whose object was deleted or overwritten behind the archive's back is named by `audit`
/// and refused by `get`.
///
/// Staging uploads: a worker hashes the file (in memory up to the inline limit, else streamed)
/// and uploads it put-if-absent — a small one on the store's upload threads (8 in flight) while
/// the worker goes on, a large one at once (multipart) — and the writer waits for the batch's
/// uploads and only records it. While a process stages, its staging mark (`s3.pending` with its
/// pid, or `blob_pending` with an expiry) keeps `gc` from deleting objects not yet listed.
public final class S3ArchiveBlobStore: BlobStaging, @unchecked Sendable {
    public let objects: S3BlobStore
    public let ledger: any BlobLedger
    /// Uploads of small staged blobs in flight (`stage(inline:)`), at most `uploadSlots`.
    let uploads = DispatchQueue(label: "exhibit.s3.uploads", attributes: .concurrent)
    let slots: DispatchSemaphore
    /// Every upload handed to `uploads` and not yet finished: `drain` waits for them, so no
    /// upload thread is still inside libcurl when the run gives up and the process exits.
    let inFlight = DispatchGroup()
    /// Small-blob uploads in flight at once.
    public static let uploadSlots = 8

    /// Over `objects` with the ledger in `environment` (created when missing, unless read-only).
    public convenience init(objects: S3BlobStore, environment: Environment) throws {
        try self.init(objects: objects, ledger: LMDBBlobLedger(environment: environment))
    }

    /// Over `objects` with `ledger`.
    public init(objects: S3BlobStore, ledger: any BlobLedger) {
        self.objects = objects
        self.ledger = ledger
        slots = DispatchSemaphore(value: Self.uploadSlots)
    }

    public var location: BlobLocation { objects.location }

    // MARK: The ledger

    /// The size the ledger records for `id`, nil when the archive does not hold it.
    public func recorded(_ id: ContentID) throws -> Int64? {
        try ledger.recorded(id)
    }

    /// Whether the ledger lists `id` (no request to the bucket).
    public func holds(_ id: ContentID) throws -> Bool { try recorded(id) != nil }

    /// The object's HEAD when the ledger lists the blob; nil otherwise.
    public func describe(_ id: ContentID) throws -> BlobDescription? {
        guard try recorded(id) != nil else { return nil }
        return try objects.describe(id)
    }

    /// Unlisted objects and unfinished uploads (`collectGarbage`).
    public func collectObjectGarbage() throws -> ObjectGarbageReport? { try collectGarbage() }

    /// The ledger's blob count and bytes (no request to the bucket).
    public func totals() throws -> (blobs: Int64, bytes: Int64) { try ledger.totals() }

    /// Records the blobs in one transaction; true for each blob the ledger did not list.
    func record(_ blobs: [(ContentID, UInt64)]) throws -> [Bool] {
        if blobs.isEmpty { return [] }
        return try ledger.record(blobs)
    }

    func requireRecorded(_ id: ContentID) throws -> Int64 {
        guard let size = try recorded(id) else { throw S3Error(.notFound, "no blob \(id) in the archive") }
        return size
    }

    // MARK: BlobStore

    public func put(_ id: ContentID, size: Int64, from source: inout ByteReader) throws -> BlobPutStatus {
        if try recorded(id) != nil { return .known }
        try ledger.markStaging()
        _ = try objects.put(id, size: size, from: &source)
        return try record([(id, UInt64(size))])[0] ? .new : .known
    }

    /// The object's size (HEAD) when the ledger lists the blob; nil when the archive does not
    /// hold it or its object is gone.
    public func size(of id: ContentID) throws -> Int64? {
        guard try recorded(id) != nil else { return nil }
        return try objects.size(of: id)
    }

    @discardableResult
    public func get(_ id: ContentID, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        _ = try requireRecorded(id)
        return try objects.get(id, sink: sink)
    }

    @discardableResult
    public func get(_ id: ContentID, range: Range<Int64>, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        _ = try requireRecorded(id)
        return try objects.get(id, range: range, sink: sink)
    }

    /// The ledger's blobs with their recorded sizes, in ID order.
    @discardableResult
    public func forEachBlob(_ each: (ContentID, Int64) throws -> Void) throws -> Int {
        let entries = try ledger.entries()
        for (id, size) in entries { try each(id, size) }
        return entries.count
    }

    @discardableResult
    public func delete(_ id: ContentID) throws -> Bool {
        guard try recorded(id) != nil else { return false }
        _ = try objects.delete(id)
        return try ledger.remove(id)
    }

    /// GETs the object and re-hashes it (`s3.notFound` when gone, `s3.integrity.mismatch` when
    /// its bytes are not the blob), and compares its size with the ledger's.
    public func check(_ id: ContentID) throws -> BlobCheck {
        guard let size = try recorded(id) else {
            return BlobCheck(blob: id, problems: [BlobProblem(code: S3Error.Code.notFound.rawValue, detail: "the archive does not list blob \(id)")])
        }
        var check = try objects.check(id)
        if check.isIntact, Int64(check.bytesRead) != size {
            check.problems.append(BlobProblem(code: S3Error.Code.integrityMismatch.rawValue,
                                              detail: "blob \(id) has \(check.bytesRead) bytes, the archive recorded \(size)"))
        }
        return check
    }
}

extension S3ArchiveBlobStore {
    /// How many blobs the LMDB ledger of `environment` lists and their bytes, read without
    /// contacting the bucket (`stats`); zero when there is no ledger.
    public static func ledgerTotals(in environment: Environment) throws -> (blobs: Int64, bytes: Int64) {
        try LMDBBlobLedger.totals(in: environment)
    }
}
