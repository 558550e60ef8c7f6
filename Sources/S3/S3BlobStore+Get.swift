import Crypto
import Foundation
import Ground

extension S3BlobStore {
    /// Reads blob `id` whole into `sink`, re-hashing every byte: the last piece is held back
    /// until the SHA-256 matched, so a sink never receives a whole blob that is not `id`
    /// (`s3.integrity.mismatch`; the earlier bytes were written). `s3.notFound` when absent.
    /// Returns the byte count.
    ///
    /// The first GET asks for the first `partSize` bytes (its answer names the blob's size and
    /// ETag); a larger blob's other ranges are fetched by `downloadConcurrency` threads at once
    /// (`RangePipeline`), each with `If-Match` on that ETag, while this thread hashes and hands
    /// on the ranges in order: memory is (downloadConcurrency + 1) × partSize whatever the size.
    @discardableResult
    public func get(_ id: ContentID, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        try withoutActuallyEscaping(sink) { try get(id, delivery: OrderedDelivery(sink: $0)) }
    }

    private func get(_ id: ContentID, delivery: OrderedDelivery) throws -> Int64 {
        var delivery = delivery
        let key = key(for: id)
        let first = Int64(options.partSize)
        var pipeline: RangePipeline?
        defer { pipeline?.finish() }
        do {
            try client.get(bucket: bucket, key: key, range: options.downloadConcurrency > 1 ? 0..<first : nil, atMost: true,
                           onObject: { info, end in
                               guard end < info.size else { return }
                               pipeline = RangePipeline(store: self, key: key, etag: info.etag, size: info.size, from: end)
                           }, sink: { try delivery.deliver($0) })
        } catch let e as S3Error where e.status == 416 && delivery.count == 0 {
            // A range of an empty object is unsatisfiable: read it whole.
            try client.get(bucket: bucket, key: key) { try delivery.deliver($0) }
        }
        if let pipeline { try pipeline.deliverInOrder { try delivery.deliver($0) } }
        return try delivery.finish(id)
    }
}

/// The bytes of one verified get on their way to the sink, in order: hashed as they pass, the
/// last piece held back until the whole matched the ID.
struct OrderedDelivery {
    let sink: (UnsafeRawBufferPointer) throws -> Void
    let hasher = MessageDigest(.sha256)
    var held: [UInt8] = []
    var count: Int64 = 0

    init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) { self.sink = sink }

    mutating func deliver(_ bytes: UnsafeRawBufferPointer) throws {
        hasher.update(bytes)
        count += Int64(bytes.count)
        if !held.isEmpty { try held.withUnsafeBytes { try sink($0) } }
        held.removeAll(keepingCapacity: true)
        held.append(contentsOf: bytes)
    }

    /// Checks the whole against `id`, then hands on the held piece. Returns the byte count.
    mutating func finish(_ id: ContentID) throws -> Int64 {
        let actual = ContentID(digest: hasher.finalize())!
        guard actual == id else {
            throw S3Error(.integrityMismatch, "blob \(id) on the server hashes to \(actual)")
        }
        if !held.isEmpty { try held.withUnsafeBytes { try sink($0) } }
        return count
    }
}
