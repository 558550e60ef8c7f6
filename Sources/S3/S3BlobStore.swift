import Archive
import Crypto
import Foundation
import Ground

/// Blobs in an S3 bucket, one immutable object per blob named by its SHA-256, laid out like
/// restic's repository: `PREFIX/blobs/<first 2 hex>/<64 hex>`. The S3 implementation of the
/// archive's `BlobStore` (S3BlobStore+Archive.swift): put-if-absent streaming of a blob whose
/// ID is known before the upload, get (whole, re-hashed; or ranged, for the caller to
/// re-hash), has, stat, list, delete, cleaning of interrupted multipart uploads, and Object
/// Lock retention. Thread-safe; every call blocks its thread.
public final class S3BlobStore: Sendable {
    public struct Options: Sendable {
        /// Blobs up to this size go in one PUT streamed from the source; larger ones in a
        /// multipart upload. At most 5 GiB (S3's limit for one PUT). A single PUT costs the client
        /// one MD5 pass (the server checks the SHA-256); a multipart one also hashes each part and
        /// the whole (docs/s3.md "Why the threshold is where it is"). A retry re-sends a single PUT
        /// whole, a part only itself.
        public var multipartThreshold: Int
        /// Size of each part but the last (S3 wants ≥ 5 MiB; at most 10,000 parts).
        public var partSize: Int
        /// Parts in flight at once. Memory: (uploadConcurrency + 1) × partSize, kept by the store
        /// between puts (`PartBufferPool`).
        public var uploadConcurrency: Int
        /// Ranged GETs in flight at once when a blob is larger than `partSize` (ranges of
        /// `partSize`, re-hashed in order). Memory: (downloadConcurrency + 1) × partSize, from the
        /// same pool. 1 reads a blob with one GET.
        public var downloadConcurrency: Int
        /// COMPLIANCE-mode retention for every new object (the bucket must have Object Lock).
        public var objectLock: S3ObjectLockRetention?

        /// S3's largest single PUT.
        public static let maxSinglePut = 5 << 30

        public init(multipartThreshold: Int = 64 << 20, partSize: Int = 8 << 20, uploadConcurrency: Int = 4,
                    downloadConcurrency: Int = 4, objectLock: S3ObjectLockRetention? = nil) {
            self.multipartThreshold = multipartThreshold
            self.partSize = partSize
            self.uploadConcurrency = uploadConcurrency
            self.downloadConcurrency = downloadConcurrency
            self.objectLock = objectLock
        }
    }

    /// Whether a put stored the blob or found it there already (the archive's `BlobPutStatus`).
    public typealias PutStatus = BlobPutStatus

    public let client: S3Client
    public let bucket: String
    /// Key prefix without leading or trailing `/`; empty for the bucket's root.
    public let prefix: String
    public let options: Options
    /// Set once a server answered 501 to `If-None-Match`: puts then HEAD first.
    let conditionalPutUnsupported = AtomicFlag()
    /// Part buffers kept between multipart puts and parallel gets (one transfer's worth).
    let partBuffers: PartBufferPool

    /// Opens the store; with `options.objectLock` the bucket must have Object Lock enabled
    /// (`s3.objectLock.unsupported` otherwise).
    public init(client: S3Client, bucket: String, prefix: String = "", options: Options = Options()) throws {
        try S3Endpoint.checkBucket(bucket)
        var p = Substring(prefix)
        while p.hasPrefix("/") { p = p.dropFirst() }
        while p.hasSuffix("/") { p = p.dropLast() }
        guard options.partSize >= 5 << 20, options.partSize <= 5 << 30, options.multipartThreshold >= 0,
              options.multipartThreshold <= Options.maxSinglePut, (1...64).contains(options.uploadConcurrency),
              (1...64).contains(options.downloadConcurrency) else {
            throw S3Error(.configuration, "part size must be 5 MiB–5 GiB, the threshold at most 5 GiB, concurrency 1–64")
        }
        self.client = client
        self.bucket = bucket
        self.prefix = String(p)
        self.options = options
        partBuffers = PartBufferPool(limit: max(options.uploadConcurrency, options.downloadConcurrency) + 1)
        if options.objectLock != nil, try !client.objectLockEnabled(bucket: bucket) {
            throw S3Error(.objectLockUnsupported, "bucket \(bucket) does not have Object Lock enabled")
        }
    }

    /// Where the blobs live: `PREFIX/blobs/`.
    public var blobsPrefix: String { (prefix.isEmpty ? "" : prefix + "/") + "blobs/" }

    /// The object key of blob `id`: `PREFIX/blobs/ab/abcd…`.
    public func key(for id: ContentID) -> String {
        let hex = id.hex
        return blobsPrefix + hex.prefix(2) + "/" + hex
    }

    /// The blob a key names, when it follows the layout (`…/blobs/<2 hex>/<64 hex>`).
    public func id(forKey key: String) -> ContentID? {
        guard key.hasPrefix(blobsPrefix) else { return nil }
        let rest = key.dropFirst(blobsPrefix.count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, let id = ContentID(hex: String(parts[1])),
              id.hex == parts[1], parts[1].hasPrefix(parts[0]) else { return nil }
        return id
    }

    /// The stored object of `id` (size, ETag, version, lock), nil when absent.
    public func stat(_ id: ContentID) throws -> S3ObjectInfo? {
        try client.head(bucket: bucket, key: key(for: id))
    }

    public func has(_ id: ContentID) throws -> Bool { try stat(id) != nil }

    /// Reads bytes `range` of blob `id` into `sink`, not re-hashed (a part cannot be checked
    /// against the whole's ID: the caller re-hashes). A range that does not lie within the blob
    /// is `s3.range.invalid`, before any byte reaches the sink. Returns the blob's whole size.
    @discardableResult
    public func get(_ id: ContentID, range: Range<Int64>, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        guard range.lowerBound >= 0 else { throw S3Error(.configuration, "negative range") }
        if range.isEmpty {
            guard let info = try stat(id) else { throw S3Error(.notFound, "no blob \(id)", status: 404) }
            guard range.upperBound <= info.size else { throw Self.rangeInvalid(id, range, size: info.size) }
            return info.size
        }
        do {
            return try client.get(bucket: bucket, key: key(for: id), range: range, sink: sink).size
        } catch let error as S3Error where error.status == 416 || error.code == .malformedResponse {
            // The server refused a range starting past the end (416) or cut it at the end (the
            // client refuses such an answer before any byte reaches the sink): a range that does
            // not lie within the blob is the caller's error, named as such.
            guard let info = try stat(id) else { throw S3Error(.notFound, "no blob \(id)", status: 404) }
            guard range.upperBound <= info.size else { throw Self.rangeInvalid(id, range, size: info.size) }
            throw error
        }
    }

    static func rangeInvalid(_ id: ContentID, _ range: Range<Int64>, size: Int64) -> S3Error {
        S3Error(.rangeInvalid, "bytes \(range.lowerBound)..<\(range.upperBound) are not within blob \(id) of \(size) bytes")
    }

    /// Every blob under the prefix with its size, page by page (1,000 keys a request), in key
    /// order. Keys that do not follow the layout are counted, not listed.
    public func list(_ each: (ContentID, Int64) throws -> Void) throws -> (blobs: Int, foreignKeys: Int) {
        var token: String?
        var blobs = 0, foreign = 0
        repeat {
            let page = try client.listObjects(bucket: bucket, prefix: blobsPrefix, continuation: token)
            for object in page.objects {
                if let id = id(forKey: object.key) { try each(id, object.size); blobs += 1 } else { foreign += 1 }
            }
            token = page.next
        } while token != nil
        return (blobs, foreign)
    }

    /// Deletes blob `id`: on a versioned bucket every version of its key (an Object Lock
    /// retention refuses it: `s3.accessDenied`). Returns false when it was not there.
    @discardableResult
    public func delete(_ id: ContentID) throws -> Bool {
        let key = key(for: id)
        guard let info = try client.head(bucket: bucket, key: key) else { return false }
        if info.versionID == nil {
            try client.delete(bucket: bucket, key: key)
        } else {
            for version in try client.versions(bucket: bucket, key: key) {
                try client.delete(bucket: bucket, key: key, versionID: version.versionID)
            }
        }
        return true
    }

    /// Multipart uploads under the blobs prefix that were started and not finished.
    public func pendingUploads() throws -> [S3MultipartUpload] {
        try client.multipartUploads(bucket: bucket, prefix: blobsPrefix)
    }

    /// Aborts every unfinished multipart upload started more than `age` seconds ago (an upload
    /// younger than that may belong to a put still running). Returns how many were aborted.
    @discardableResult
    public func abortStaleUploads(olderThan age: TimeInterval, now: Date = Date()) throws -> Int {
        var aborted = 0
        for upload in try pendingUploads() where upload.initiated < now.addingTimeInterval(-age) {
            try client.abortMultipartUpload(bucket: bucket, key: upload.key, uploadID: upload.uploadID)
            aborted += 1
        }
        return aborted
    }

    /// Whether the bucket has Object Lock enabled (GetObjectLockConfiguration).
    public func objectLockEnabled() throws -> Bool { try client.objectLockEnabled(bucket: bucket) }
}
