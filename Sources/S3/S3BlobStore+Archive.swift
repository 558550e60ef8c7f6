import Archive
import Crypto
import Ground

/// `S3BlobStore` is the S3 implementation of the archive's `BlobStore` (put, both gets and
/// delete are in S3BlobStore.swift and S3BlobStore+Put.swift).
extension S3BlobStore: BlobStore {
    public var location: BlobLocation {
        let endpoint = client.endpoint
        let url: String? = endpoint.pathStyle ? "\(endpoint.scheme)://\(endpoint.host)\(endpoint.basePath)" : nil
        return .s3(bucket: bucket, prefix: prefix, endpoint: url, region: endpoint.region)
    }

    public func size(of id: ContentID) throws -> Int64? { try stat(id)?.size }

    /// The object's key and HEAD; nil when there is none.
    public func describe(_ id: ContentID) throws -> BlobDescription? {
        try stat(id).map { info in
            .object(size: info.size, key: key(for: id), etag: info.etag, versionID: info.versionID, lockMode: info.lockMode,
                    retainUntil: info.retainUntil)
        }
    }

    /// Lists the blobs under the prefix (keys that do not follow the layout are skipped; `list`
    /// counts them). S3 lists keys in byte order, which for `PREFIX/blobs/ab/ab…` is ID order.
    @discardableResult
    public func forEachBlob(_ each: (ContentID, Int64) throws -> Void) throws -> Int {
        try list(each).blobs
    }

    /// GETs the object and re-hashes it: `s3.notFound` when it is gone, `s3.integrity.mismatch`
    /// when its bytes are not the blob (an object overwritten by another client).
    public func check(_ id: ContentID) throws -> BlobCheck {
        var check = BlobCheck(blob: id)
        do {
            check.bytesRead = UInt64(try get(id) { _ in })
        } catch let error as S3Error where error.code == .notFound || error.code == .integrityMismatch {
            check.problems.append(BlobProblem(code: error.code.rawValue, detail: error.description))
        }
        return check
    }
}

extension S3Error: NamedError {
    public var statusCode: String { code.rawValue }
}

extension S3Error: ArchiveFailure {
    /// A blob missing or not matching its ID, a range outside it, an unreadable input file: one
    /// operation failed (exit 1, as `cas.*` damage is). The store unreachable, credentials refused
    /// or missing, the bucket absent or misconfigured: the archive cannot be used (exit 3).
    public var archiveUnusable: Bool {
        switch code {
        case .notFound, .integrityMismatch, .integrityRejected, .rangeInvalid, .input: false
        default: true
        }
    }
}
