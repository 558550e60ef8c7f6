import Crypto
import Foundation
import Ground

extension S3BlobStore {
    /// Stores blob `id` (its SHA-256, known before the upload) of `size` bytes read from
    /// `source`, unless the bucket holds it already. Up to `multipartThreshold` bytes: one PUT
    /// streamed from the source (S3BlobStore+SinglePut.swift) with `If-None-Match: *` (412 →
    /// `known`; a server answering 501 is asked with HEAD first from then on), signed with
    /// `x-amz-content-sha256: <id>` so the server refuses bytes that are not the blob
    /// (`s3.integrity.rejected`, nothing stored), with `Content-MD5` from a pass before. Larger:
    /// HEAD (present → `known`), then a multipart upload in constant memory, each part with its
    /// own SHA-256 and MD5, the whole re-hashed against `id` before it is completed; any failure
    /// aborts the upload, so no object appears. A source holding other than `size` bytes is
    /// `s3.input`. With Object Lock retention configured, the object is locked in COMPLIANCE mode.
    public func put(_ id: ContentID, size: Int64, from source: inout ByteReader) throws -> PutStatus {
        guard size >= 0 else { throw S3Error(.input, "negative size") }
        if size <= Int64(options.multipartThreshold) {
            return try putSingle(id, size: size, from: &source)
        }
        return try putMultipart(id, size: size, from: &source)
    }

    /// Stores `bytes` as blob `id`.
    public func put(_ id: ContentID, bytes: [UInt8]) throws -> PutStatus {
        var source = ByteReader(MemoryByteSource(bytes))
        return try put(id, size: Int64(bytes.count), from: &source)
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

    /// Uploads the `size` bytes at `source`'s position as parts of `partSize`: `uploadConcurrency`
    /// threads each read a part at its offset into one of `uploadConcurrency + 1` buffers,
    /// hashing it (MD5, SHA-256) as it is read, and upload it; this thread feeds the parts in
    /// order to `whole` meanwhile (PartPipeline). Leaves `source` past the blob.
    private func uploadParts(key: String, uploadID: String, size: Int64, partSize: Int,
                             from source: inout ByteReader, whole: MessageDigest) throws -> [String] {
        let pipeline = PartPipeline(buffers: options.uploadConcurrency + 1, partSize: partSize, size: size, pool: partBuffers)
        let (client, bucket, bytes, base) = (self.client, self.bucket, source.source, source.position)
        let workers = DispatchGroup()
        for _ in 0..<min(options.uploadConcurrency, pipeline.parts) {
            workers.enter()
            // Threads of their own: GCD's global queue runs only as many blocking items at
            // once as there are cores (2 here), which halved the parts in flight.
            Thread {
                defer { workers.leave() }
                while let (part, index) = pipeline.take() {
                    let digests: (md5: [UInt8], sha256: String)
                    do { digests = try pipeline.readPart(part, into: index, from: bytes, base: base) } catch {
                        pipeline.fail(error, buffer: index)
                        return
                    }
                    pipeline.didRead(part: part, buffer: index)
                    do {
                        let body = UnsafeRawBufferPointer(pipeline.buffer(index, count: pipeline.length(of: part)))
                        let etag = try client.uploadPart(bucket: bucket, key: key, uploadID: uploadID, partNumber: part,
                                                         bytes: body, sha256Hex: digests.sha256, md5: digests.md5)
                        pipeline.didUpload(part: part, buffer: index, etag: etag)
                    } catch {
                        pipeline.didUpload(part: part, buffer: index, etag: nil)
                        pipeline.fail(error)
                        return
                    }
                }
            }.start()
        }
        pipeline.feedWhole(whole)
        workers.wait()   // no worker may outlive the buffers (freed with the pipeline)
        if let failure = pipeline.failure { throw failure }
        source = ByteReader(bytes, from: base + size)
        try Self.expectEnd(&source, size: size)
        return try pipeline.allETags()
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
