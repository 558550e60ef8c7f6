import Crypto
import Foundation
import HTTP

extension S3Client {
    /// The outcome of a conditional PUT.
    public enum ConditionalPut: Sendable, Equatable {
        /// Stored; the object's ETag.
        case stored(etag: String)
        /// `If-None-Match: *` failed: the key already exists (412).
        case exists
        /// The server does not implement `If-None-Match` on PUT (501).
        case conditionNotImplemented
    }

    /// HEAD: the object's size and headers, nil when there is none (404).
    public func head(bucket: String, key: String) throws -> S3ObjectInfo? {
        let response = try execute { _ in S3Request("HeadObject", "HEAD", bucket: bucket, key: key) }
        if response.status == 404 { return nil }
        guard response.isSuccess else {
            // A HEAD answer has no body, so a 403 does not say why: ask the bucket, whose answer does.
            if response.status == 403 { try probeAuthorization(bucket: bucket) }
            throw S3Error.from(response, operation: "HeadObject \(key)", credentials: credentials)
        }
        return try S3ObjectInfo(headers: response, operation: "HeadObject")
    }

    /// PUT of `bytes` (kept alive by the caller), whose SHA-256 is `sha256Hex`: the server checks
    /// the body against it and against `Content-MD5`. With `ifNoneMatch` the put only creates.
    public func put(bucket: String, key: String, bytes: UnsafeRawBufferPointer, sha256Hex: String,
                    ifNoneMatch: Bool, extraHeaders: [(name: String, value: String)] = []) throws -> ConditionalPut {
        try put(bucket: bucket, key: key, body: .buffer(bytes), sha256Hex: sha256Hex, md5: MD5.digest(bytes),
                ifNoneMatch: ifNoneMatch, extraHeaders: extraHeaders)
    }

    /// PUT of `body` (a buffer, or a source read at its offsets and streamed in constant memory:
    /// it must be rewindable, so a retry sends it again from its start), whose SHA-256 is
    /// `sha256Hex` and MD5 `md5`: the server refuses a body that hashes otherwise (400
    /// `XAmzContentSHA256Mismatch` or `BadDigest` → `s3.integrity.rejected`) and stores nothing.
    public func put(bucket: String, key: String, body: HTTPBody, sha256Hex: String, md5: [UInt8],
                    ifNoneMatch: Bool, extraHeaders: [(name: String, value: String)] = []) throws -> ConditionalPut {
        let response = try execute { _ in
            var r = S3Request("PutObject", "PUT", bucket: bucket, key: key)
            r.headers = extraHeaders
            if ifNoneMatch { r.headers.append(("If-None-Match", "*")) }
            r.setBody(body, sha256Hex: sha256Hex, md5: md5)
            return r
        }
        if ifNoneMatch, response.status == 412 { return .exists }
        if ifNoneMatch, response.status == 501 { return .conditionNotImplemented }
        guard response.isSuccess else { throw S3Error.from(response, operation: "PutObject \(key)", credentials: credentials) }
        return .stored(etag: response.header("etag") ?? "")
    }

    /// GET of `range` (the whole object when nil), streamed to `sink`. A transfer broken by a
    /// reset or timeout is resumed where it stopped, with `If-Match` on the first answer's ETag
    /// so two versions are never spliced. Each answer's head is checked before its body reaches
    /// the sink (206 and the `Content-Range` asked for when resuming or ranged), and exactly the
    /// expected number of bytes must arrive. Returns the object's info (`size`: the whole object).
    /// `ifMatch`: the ETag the object must have from the first request on (the ranges of one
    /// object fetched in parallel; another is `s3.integrity.mismatch`). `atMost`: the range may
    /// run past the object's end, which then ends it (the first range of an object whose size
    /// is not known yet; a server ignoring the range with 200 gives the whole). `onObject` sees
    /// the object's info and where this GET's bytes will end, once, as soon as the first
    /// answer's head was checked, before its body.
    @discardableResult
    public func get(bucket: String, key: String, range: Range<Int64>? = nil, ifMatch: String? = nil, atMost: Bool = false,
                    onObject: (S3ObjectInfo, Int64) throws -> Void = { _, _ in },
                    sink: (UnsafeRawBufferPointer) throws -> Void) throws -> S3ObjectInfo {
        let start = range?.lowerBound ?? 0
        var offset = start
        var first: S3ObjectInfo?
        var end: Int64? = range?.upperBound
        let operation = "GetObject \(key)"
        let response = try execute(resumable: true, onHead: { head in
            guard head.isSuccess else { return }
            let info = try S3ObjectInfo(headers: head, operation: operation)
            if let first, first.etag != info.etag {
                throw S3Error(.integrityMismatch, "\(operation): the object changed while it was read")
            }
            let known = first != nil
            if head.status == 206 {
                guard let value = head.header("content-range"), let (from, last, total) = Self.parseContentRange(value),
                      from == offset else {
                    throw S3Error(.malformedResponse, "\(operation): the answer is not the range asked for")
                }
                let stop = end.map { atMost ? min($0, total) : $0 } ?? total
                guard last == stop - 1, last - from + 1 == info.size else {
                    throw S3Error(.malformedResponse, "\(operation): the answer is not the range asked for")
                }
                first = first ?? S3ObjectInfo(copying: info, size: total)
                end = stop
            } else {
                guard head.status == 200, range == nil || atMost, offset == 0 else {
                    throw S3Error(.malformedResponse, "\(operation): HTTP \(head.status) to a ranged read")
                }
                first = info
                end = info.size
            }
            if !known, let first, let end { try onObject(first, end) }
        }, sink: { bytes in
            guard let end, offset + Int64(bytes.count) <= end else {
                throw S3Error(.malformedResponse, "\(operation): more bytes than asked for")
            }
            offset += Int64(bytes.count)
            try sink(bytes)
        }, { _ in
            var r = S3Request("GetObject", "GET", bucket: bucket, key: key)
            if let range {
                r.headers.append(("Range", "bytes=\(offset)-\(range.upperBound - 1)"))
            } else if offset > 0 {
                r.headers.append(("Range", "bytes=\(offset)-"))
            }
            if let etag = first?.etag ?? ifMatch, !etag.isEmpty { r.headers.append(("If-Match", etag)) }
            return r
        })
        if response.status == 412, first != nil || ifMatch != nil {
            throw S3Error(.integrityMismatch, "\(operation): the object changed while it was read", status: 412)
        }
        guard response.isSuccess else { throw S3Error.from(response, operation: operation, credentials: credentials) }
        guard let first, let end, offset == end else {
            throw S3Error(.malformedResponse, "\(operation): the body ended early")
        }
        return first
    }

    /// DELETE (of one version when `versionID` is given). Deleting what is absent succeeds.
    public func delete(bucket: String, key: String, versionID: String? = nil) throws {
        let response = try execute { _ in
            S3Request("DeleteObject", "DELETE", bucket: bucket, key: key, query: versionID.map { [("versionId", $0)] } ?? [])
        }
        guard response.isSuccess || response.status == 404 else {
            throw S3Error.from(response, operation: "DeleteObject \(key)", credentials: credentials)
        }
    }

    /// GetObjectLockConfiguration: true when the bucket has Object Lock enabled; false when it
    /// has none (or the server does not implement it).
    public func objectLockEnabled(bucket: String) throws -> Bool {
        do {
            let root = try document { _ in S3Request("GetObjectLockConfiguration", "GET", bucket: bucket, query: [("object-lock", "")]) }
            return root.child("ObjectLockEnabled")?.text == "Enabled"
        } catch let e as S3Error where ["ObjectLockConfigurationNotFoundError", "NotImplemented"].contains(e.serverCode)
                    || e.status == 501 {
            return false
        }
    }

    /// PutObjectRetention: COMPLIANCE mode until `until` on one version of `key`.
    public func putObjectRetention(bucket: String, key: String, versionID: String?, until: Date) throws {
        let xml = "<Retention xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Mode>COMPLIANCE</Mode>"
            + "<RetainUntilDate>\(UTCTime.iso8601(until))</RetainUntilDate></Retention>"
        let body = Array(xml.utf8)
        let sha = Hex.encode(MessageDigest.sha256(body))
        let response = try body.withUnsafeBytes { bytes in
            try execute { _ in
                var query = [("retention", "")]
                if let versionID { query.append(("versionId", versionID)) }
                var r = S3Request("PutObjectRetention", "PUT", bucket: bucket, key: key, query: query)
                r.headers.append(("Content-Type", "application/xml"))
                r.setBody(bytes, sha256Hex: sha)
                return r
            }
        }
        guard response.isSuccess else { throw S3Error.from(response, operation: "PutObjectRetention \(key)", credentials: credentials) }
    }

    /// Turns a bodiless 403 into its reason: GetBucketLocation answers with an error document.
    func probeAuthorization(bucket: String) throws {
        let response = try execute { _ in S3Request("GetBucketLocation", "GET", bucket: bucket, query: [("location", "")]) }
        if !response.isSuccess {
            let e = S3Error.from(response, operation: "GetBucketLocation", credentials: credentials)
            if e.code == .credentialsRejected { throw e }
        }
    }

    /// `bytes FIRST-LAST/TOTAL`, strictly.
    static func parseContentRange(_ value: String) -> (Int64, Int64, Int64)? {
        guard value.hasPrefix("bytes ") else { return nil }
        let rest = value.dropFirst(6).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 2 else { return nil }
        let span = rest[0].split(separator: "-", omittingEmptySubsequences: false)
        guard span.count == 2, let first = S3Error.parseDecimal(String(span[0])), let last = S3Error.parseDecimal(String(span[1])),
              let total = S3Error.parseDecimal(String(rest[1])), first <= last, last < total else { return nil }
        return (first, last, total)
    }
}

extension S3ObjectInfo {
    init(copying other: S3ObjectInfo, size: Int64) {
        self.size = size
        etag = other.etag
        versionID = other.versionID
        lockMode = other.lockMode
        retainUntil = other.retainUntil
    }
}
