import Crypto
import Foundation
import Ground
import HTTP

extension S3BlobStore {
    /// Bytes read (and MD5'd) at a time by the pass before a single PUT.
    public static let md5Piece = 1 << 20

    /// One PUT of the `size` bytes at `source`'s position, streamed from the source in constant
    /// memory. The client hashes nothing but the MD5 (`Content-MD5` is a header, so it takes a
    /// pass over the source before the request); the SHA-256 is the ID, known already, signed as
    /// `x-amz-content-sha256`, and the server checks the body it receives against both: bytes
    /// that changed between the ID's hashing, the MD5 pass and the send are refused
    /// (`s3.integrity.rejected`) and nothing is stored. The body is read at its offsets, so a
    /// retry (or libcurl on a fresh connection) sends it again from the source. Leaves `source`
    /// past the blob; a source holding other than `size` bytes is `s3.input`.
    func putSingle(_ id: ContentID, size: Int64, from source: inout ByteReader) throws -> PutStatus {
        let (bytes, base) = (source.source, source.position)
        let md5 = try Self.md5(of: bytes, at: base, count: size)
        source = ByteReader(bytes, from: base + size)
        try Self.expectEnd(&source, size: size)
        return try sendSingle(id, size: size, md5: md5, bytes: bytes, base: base)
    }

    private func sendSingle(_ id: ContentID, size: Int64, md5: [UInt8], bytes: any ByteSource, base: Int64) throws -> PutStatus {
        let key = key(for: id)
        let lock = options.objectLock?.headers() ?? []
        let body = HTTPBody.positioned(length: size) { offset, buffer in
            let got: Int
            do { got = try bytes.read(at: base + offset, into: buffer) } catch {
                throw S3Error(.input, "reading the blob's source failed: \(error)")
            }
            guard got > 0 || buffer.isEmpty else {
                throw S3Error(.input, "the source ended after \(offset) of \(size) declared bytes")
            }
            return got
        }
        if conditionalPutUnsupported.isSet {
            if try client.head(bucket: bucket, key: key) != nil { return .known }
            _ = try client.put(bucket: bucket, key: key, body: body, sha256Hex: id.hex, md5: md5,
                               ifNoneMatch: false, extraHeaders: lock)
            return .new
        }
        switch try client.put(bucket: bucket, key: key, body: body, sha256Hex: id.hex, md5: md5,
                              ifNoneMatch: true, extraHeaders: lock) {
        case .stored: return .new
        case .exists: return .known
        case .conditionNotImplemented:
            conditionalPutUnsupported.set()
            return try sendSingle(id, size: size, md5: md5, bytes: bytes, base: base)
        }
    }

    /// MD5 of `count` bytes of `source` from `offset`, read in 1 MiB pieces; fewer bytes is
    /// `s3.input`.
    static func md5(of source: any ByteSource, at offset: Int64, count: Int64) throws -> [UInt8] {
        let md5 = MD5()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(min(count, Int64(md5Piece))), alignment: 16)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while done < count {
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[..<Int(min(Int64(buffer.count), count - done))])
            let got: Int
            do { got = try source.read(at: offset + done, into: piece) } catch {
                throw S3Error(.input, "reading the blob's source failed: \(error)")
            }
            guard got > 0 else { throw S3Error(.input, "the source ended after \(done) of \(count) declared bytes") }
            md5.update(UnsafeRawBufferPointer(rebasing: piece[..<got]))
            done += Int64(got)
        }
        return md5.finalize()
    }
}
