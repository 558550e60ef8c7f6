import Archive
import Crypto
import Foundation
import Ground
import Testing

/// The one contract every `BlobStore` meets, run by CASTests (`LMDBBlobStoreContractTests`)
/// and S3Tests (`RGWTests.Contract`, against the real Ceph RGW) on the same cases. A subject
/// is a fresh, empty store plus the ways to hurt it behind its back that its medium allows.
public struct BlobStoreSubject: Sendable {
    public let store: any BlobStore
    /// Changes the stored bytes of a blob (whose bytes were `original`) without the store's
    /// API: a flipped byte in LMDB's file, an object overwritten by another S3 client.
    public let corrupt: @Sendable (_ id: ContentID, _ original: [UInt8]) throws -> Void
    /// Removes a blob without the store's API, where the medium allows it (nil for LMDB).
    public let vanish: (@Sendable (ContentID) throws -> Void)?
    /// The codes this implementation throws for a missing blob, for a put whose bytes are not
    /// its ID, for stored bytes that no longer hash to their ID, and for a range that does not
    /// lie within the blob.
    public let notFound: Set<String>
    public let putMismatch: Set<String>
    public let damaged: Set<String>
    public let rangeRefused: Set<String>

    public init(store: any BlobStore, corrupt: @escaping @Sendable (ContentID, [UInt8]) throws -> Void,
                vanish: (@Sendable (ContentID) throws -> Void)?, notFound: Set<String>, putMismatch: Set<String>,
                damaged: Set<String>, rangeRefused: Set<String>) {
        self.store = store
        self.corrupt = corrupt
        self.vanish = vanish
        self.notFound = notFound
        self.putMismatch = putMismatch
        self.damaged = damaged
        self.rangeRefused = rangeRefused
    }
}

public enum BlobStoreContract {
    /// The sizes every store round-trips: empty, one byte, LMDB's chunk size and S3's
    /// multipart threshold each ± 1.
    public static func sizes(chunk: Int, multipart: Int) -> [Int] {
        [0, 1, chunk - 1, chunk, chunk + 1, multipart - 1, multipart, multipart + 1]
    }

    /// Put, size, whole get (hashed by `openssl dgst -sha256`, an independent hasher, as is the
    /// ID), put-if-absent (`known`), listing, ranged gets at the edges, check, delete.
    public static func roundTrip(_ s: BlobStoreSubject, size: Int, seed: UInt64) throws {
        let dir = ScratchDirectory()
        let input = dir.file("in")
        try writePattern(input, count: size, seed: seed)
        let id = try #require(ContentID(hex: opensslSHA256(input)))
        var reader = ByteReader(try FileByteSource(path: input))
        #expect(try s.store.put(id, size: Int64(size), from: &reader) == .new)
        #expect(try s.store.size(of: id) == Int64(size))
        #expect(try s.store.has(id))

        let output = dir.file("out")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let count = try s.store.get(id) { try writer.write(contentsOf: Data($0)) }
        try writer.close()
        #expect(count == Int64(size))
        #expect(opensslSHA256(output) == id.hex)

        var again = ByteReader(try FileByteSource(path: input))
        #expect(try s.store.put(id, size: Int64(size), from: &again) == .known)
        var listed: [(ContentID, Int64)] = []
        #expect(try s.store.forEachBlob { listed.append(($0, $1)) } == 1)
        #expect(listed.map(\.0) == [id] && listed.map(\.1) == [Int64(size)])

        let file = try FileByteSource(path: input)
        for range in edgeRanges(size: Int64(size)) {
            var got: [UInt8] = []
            #expect(try s.store.get(id, range: range) { got.append(contentsOf: $0) } == Int64(size))
            #expect(got == (range.isEmpty ? [] : try file.readExactly(at: range.lowerBound, count: Int(range.count))),
                    "range \(range) of \(size) bytes")
        }
        for range in [Int64(size)..<Int64(size) + 1, Int64(size / 2)..<Int64(size) + 10] {
            var got = 0
            expectCode(s.rangeRefused) { try s.store.get(id, range: range) { got += $0.count } }
            #expect(got == 0, "bytes of \(range) reached the sink")
        }

        let check = try s.store.check(id)
        #expect(check.isIntact, "\(check.problems)")
        #expect(check.bytesRead == UInt64(size))

        #expect(try s.store.delete(id))
        #expect(try !s.store.has(id))
        #expect(try !s.store.delete(id))
        #expect(try s.store.forEachBlob { _, _ in } == 0)
        expectCode(s.notFound) { try s.store.get(id) { _ in } }
    }

    /// A source whose bytes are not the ID it is put under, or that ends before `size`, or that
    /// holds more: the put fails and no blob appears under that ID.
    public static func badSourcesLeaveNoBlob(_ s: BlobStoreSubject, size: Int) throws {
        let bytes = pattern(size, seed: 41)
        let other = pattern(size, seed: 42)
        let id = ContentID.sha256(of: bytes)
        var wrong = ByteReader(MemoryByteSource(other))
        expectCode(s.putMismatch) { _ = try s.store.put(id, size: Int64(size), from: &wrong) }
        #expect(try !s.store.has(id))
        var short = ByteReader(MemoryByteSource(Array(bytes.dropLast())))
        #expect(throws: (any Error).self) { _ = try s.store.put(id, size: Int64(size), from: &short) }
        #expect(try !s.store.has(id))
        var long = ByteReader(MemoryByteSource(bytes + [0]))
        #expect(throws: (any Error).self) { _ = try s.store.put(id, size: Int64(size), from: &long) }
        #expect(try !s.store.has(id))
        #expect(try s.store.forEachBlob { _, _ in } == 0)
        // The right bytes still go in afterwards.
        var right = ByteReader(MemoryByteSource(bytes))
        #expect(try s.store.put(id, size: Int64(size), from: &right) == .new)
        #expect(try s.store.bytes(of: id) == bytes)
    }

    /// Bytes changed behind the store's back are refused by `get` (the whole is never
    /// delivered) and named by `check`; a blob removed behind its back is named too. Another
    /// blob stays intact.
    public static func damageIsNamed(_ s: BlobStoreSubject, size: Int) throws {
        let bytes = pattern(size, seed: 77)
        let keep = pattern(1000, seed: 78)
        let (id, _) = try s.store.put(bytes: bytes)
        let (keepID, _) = try s.store.put(bytes: keep)
        try s.corrupt(id, bytes)
        var delivered = 0
        expectCode(s.damaged) { try s.store.get(id) { delivered += $0.count } }
        #expect(delivered < size, "the whole of a damaged blob was delivered")
        let check = try s.store.check(id)
        #expect(!check.isIntact)
        #expect(check.problems.allSatisfy { s.damaged.contains($0.code) }, "\(check.problems)")
        #expect(try s.store.check(keepID).isIntact)
        #expect(try s.store.bytes(of: keepID) == keep)
        if let vanish = s.vanish {
            try vanish(keepID)
            #expect(try s.store.check(keepID).problems.map(\.code).allSatisfy { s.notFound.contains($0) })
            #expect(try !s.store.check(keepID).isIntact)
            expectCode(s.notFound) { try s.store.get(keepID) { _ in } }
        }
    }

    /// Ranges within the blob: at the start, the end, across the middle, whole and empty.
    static func edgeRanges(size: Int64) -> [Range<Int64>] {
        var ranges: [Range<Int64>] = [0..<min(1, size), 0..<size, size..<size, 0..<0]
        if size > 2 { ranges += [1..<size - 1, size - 1..<size, size / 2..<size] }
        return ranges
    }

    /// Expects `body` to throw a `NamedError` whose code is one of `codes`.
    static func expectCode(_ codes: Set<String>, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error; expected one of \(codes.sorted())", sourceLocation: sourceLocation)
        } catch let error as any NamedError {
            #expect(codes.contains(error.statusCode), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error) has no status code; expected one of \(codes.sorted())", sourceLocation: sourceLocation)
        }
    }
}
