import Crypto
import Foundation
import Ground

extension S3BlobStore {
    /// Stores blob `id` (its SHA-256, known before the upload) of `size` bytes read from
    /// `source`, unless the bucket holds it already. Up to `multipartThreshold` bytes: one PUT
    /// with `If-None-Match: *` (412 → `known`; a server answering 501 is asked with HEAD first
    /// from then on), signed with `x-amz-content-sha256: <id>` so the server refuses bytes that
    /// are not the blob (`s3.integrity.rejected`, nothing stored), with `Content-MD5`. Larger:
    /// HEAD (present → `known`), then a multipart upload in constant memory, each part with its
    /// own SHA-256 and MD5, the whole re-hashed against `id` before it is completed; any failure
    /// aborts the upload, so no object appears. A source holding other than `size` bytes is
    /// `s3.input`. With Object Lock retention configured, the object is locked in COMPLIANCE mode.
    public func put(_ id: ContentID, size: Int64, from source: inout ByteReader) throws -> PutStatus {
        guard size >= 0 else { throw S3Error(.input, "negative size") }
        if size <= Int64(options.multipartThreshold) {
            return try putSingle(id, size: Int(size), from: &source)
        }
        return try putMultipart(id, size: size, from: &source)
    }

    /// Stores `bytes` as blob `id`.
    public func put(_ id: ContentID, bytes: [UInt8]) throws -> PutStatus {
        var source = ByteReader(MemoryByteSource(bytes))
        return try put(id, size: Int64(bytes.count), from: &source)
    }

    private func putSingle(_ id: ContentID, size: Int, from source: inout ByteReader) throws -> PutStatus {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
        defer { buffer.deallocate() }
        let body = UnsafeMutableRawBufferPointer(rebasing: buffer[..<size])
        try Self.readExactly(&source, into: body, total: Int64(size), before: 0)
        try Self.expectEnd(&source, size: Int64(size))
        let key = key(for: id)
        let lock = options.objectLock?.headers() ?? []
        if conditionalPutUnsupported.isSet {
            if try client.head(bucket: bucket, key: key) != nil { return .known }
            _ = try client.put(bucket: bucket, key: key, bytes: UnsafeRawBufferPointer(body), sha256Hex: id.hex,
                               ifNoneMatch: false, extraHeaders: lock)
            return .new
        }
        switch try client.put(bucket: bucket, key: key, bytes: UnsafeRawBufferPointer(body), sha256Hex: id.hex,
                              ifNoneMatch: true, extraHeaders: lock) {
        case .stored: return .new
        case .exists: return .known
        case .conditionNotImplemented:
            conditionalPutUnsupported.set()
            var again = ByteReader(MemoryByteSource(Array(body)))
            return try putSingle(id, size: size, from: &again)
        }
    }

    private func putMultipart(_ id: ContentID, size: Int64, from source: inout ByteReader) throws -> PutStatus {
        let key = key(for: id)
        if try client.head(bucket: bucket, key: key) != nil { return .known }
        // At most 10,000 parts: a huge blob gets larger parts (rounded up to MiB).
        let minimum = (size + 9_999) / 10_000
        let partSize = Int(max(Int64(options.partSize), ((minimum + (1 << 20) - 1) >> 20) << 20))
        let uploadID = try client.createMultipartUpload(bucket: bucket, key: key, headers: options.objectLock?.headers() ?? [])
        do {
            let whole = MessageDigest(.sha256)
            let etags = try uploadParts(key: key, uploadID: uploadID, size: size, partSize: partSize, from: &source, whole: whole)
            let actual = ContentID(digest: whole.finalize())!
            guard actual == id else {
                throw S3Error(.integrityMismatch, "the source of blob \(id) hashes to \(actual); upload aborted")
            }
            try client.completeMultipartUpload(bucket: bucket, key: key, uploadID: uploadID, etags: etags, expectedSize: size)
            try lockCompletedUpload(key: key, size: size)
            return .new
        } catch {
            try? client.abortMultipartUpload(bucket: bucket, key: key, uploadID: uploadID)
            throw error
        }
    }

    /// Ceph 16 ignores the Object Lock headers of CreateMultipartUpload: where the completed
    /// object came out without retention, PutObjectRetention sets it on that version.
    private func lockCompletedUpload(key: String, size: Int64) throws {
        guard let lock = options.objectLock else { return }
        guard let info = try client.head(bucket: bucket, key: key), info.size == size else {
            throw S3Error(.unavailable, "the completed upload of \(key) is not there")
        }
        if info.lockMode == "COMPLIANCE", let until = info.retainUntil, until >= Date().addingTimeInterval(lock.duration - 60) { return }
        try client.putObjectRetention(bucket: bucket, key: key, versionID: info.versionID,
                                      until: Date().addingTimeInterval(lock.duration.rounded(.up)))
    }

    /// Reads part after part into `uploadConcurrency + 1` buffers; each part is hashed (MD5,
    /// SHA-256) and uploaded on a worker thread while the next is read and fed to `whole`.
    private func uploadParts(key: String, uploadID: String, size: Int64, partSize: Int,
                             from source: inout ByteReader, whole: MessageDigest) throws -> [String] {
        let parts = Int((size + Int64(partSize) - 1) / Int64(partSize))
        let pipeline = PartPipeline(buffers: options.uploadConcurrency + 1, size: partSize, parts: parts)
        let group = DispatchGroup()
        defer { group.wait() }   // no worker may outlive the buffers (freed with the pipeline)
        var offset: Int64 = 0
        for part in 1...parts {
            if let failure = pipeline.failure { throw failure }
            let n = Int(min(Int64(partSize), size - offset))
            let index = pipeline.acquire()
            let buffer = UnsafeMutableRawBufferPointer(rebasing: pipeline.buffer(index)[..<n])
            do {
                try Self.readExactly(&source, into: buffer, total: size, before: offset)
            } catch {
                pipeline.release(index)
                throw error
            }
            whole.update(UnsafeRawBufferPointer(buffer))
            offset += Int64(n)
            group.enter()
            let (client, bucket) = (self.client, self.bucket)
            // A thread of its own per part: GCD's global queue runs only as many blocking
            // items at once as there are cores (2 here), which halved the parts in flight.
            Thread {
                defer { pipeline.release(index); group.leave() }
                guard pipeline.failure == nil else { return }
                let bytes = UnsafeRawBufferPointer(rebasing: pipeline.buffer(index)[..<n])
                let md5 = MD5.digest(bytes)
                let sha = Hex.encode(MessageDigest.sha256(bytes))
                do {
                    let etag = try client.uploadPart(bucket: bucket, key: key, uploadID: uploadID, partNumber: part,
                                                     bytes: bytes, sha256Hex: sha, md5: md5)
                    pipeline.finish(part: part, etag: etag)
                } catch {
                    pipeline.fail(error)
                }
            }.start()
        }
        try Self.expectEnd(&source, size: size)
        group.wait()
        if let failure = pipeline.failure { throw failure }
        return try pipeline.etags()
    }

    /// Fills `buffer` from `source`; fewer bytes is `s3.input` (the source ended early).
    static func readExactly(_ source: inout ByteReader, into buffer: UnsafeMutableRawBufferPointer,
                            total: Int64, before: Int64) throws {
        var filled = 0
        while filled < buffer.count {
            let n: Int
            do { n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) } catch {
                throw S3Error(.input, "reading the blob's source failed: \(error)")
            }
            guard n > 0 else {
                throw S3Error(.input, "the source ended after \(before + Int64(filled)) of \(total) declared bytes")
            }
            filled += n
        }
    }

    /// The source must be at its end once `size` bytes were read.
    static func expectEnd(_ source: inout ByteReader, size: Int64) throws {
        var probe: UInt8 = 0
        let n: Int
        do { n = try withUnsafeMutableBytes(of: &probe) { try source.read(into: $0) } } catch {
            throw S3Error(.input, "reading the blob's source failed: \(error)")
        }
        guard n == 0 else { throw S3Error(.input, "the source holds more than the \(size) declared bytes") }
    }
}
