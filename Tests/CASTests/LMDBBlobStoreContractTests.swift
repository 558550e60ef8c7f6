import Archive
import ArchiveLMDB
import BlobStoreContract
import CAS
import Foundation
import Ground
import Testing

/// The blob-store contract (Tests/BlobStoreContract) on the LMDB implementation.
@Suite struct LMDBBlobStoreContractTests {
    static let sizes = BlobStoreContract.sizes(chunk: ContentStore.defaultChunkSize, multipart: 8 << 20)

    /// A fresh archive directory; `corrupt` flips a byte of the blob where it sits in
    /// `data.mdb` (found by a 64-byte run of its middle, unique in pattern bytes).
    static func subject(_ dir: ScratchDirectory) throws -> BlobStoreSubject {
        let path = dir.file("archive")
        let store = LMDBBlobStore(try ContentStore.create(at: path))
        return BlobStoreSubject(
            store: store,
            corrupt: { _, original in
                let needle = Array(original[(original.count / 2)..<min(original.count, original.count / 2 + 64)])
                let file = path + "/data.mdb"
                let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
                guard let at = firstIndex(of: needle, in: data) else { throw CocoaError(.fileReadCorruptFile) }
                let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file))
                try handle.seek(toOffset: UInt64(at + needle.count / 2))
                try handle.write(contentsOf: Data([data[at + needle.count / 2] ^ 0x01]))
                try handle.close()
            },
            vanish: nil,
            notFound: [StatusCode.casNotFound],
            putMismatch: [StatusCode.casBlobMismatch],
            damaged: [StatusCode.casChunkDamaged, StatusCode.casBlobMismatch],
                rangeRefused: [StatusCode.casRangeInvalid])
    }

    static func firstIndex(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= hay.count else { return nil }
        var i = 0
        while i <= hay.count - needle.count {
            if hay[i] == needle[0] && hay[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    @Test(arguments: sizes) func roundTrip(size: Int) throws {
        let dir = ScratchDirectory()
        try BlobStoreContract.roundTrip(try Self.subject(dir), size: size, seed: UInt64(size) &+ 3)
    }

    @Test func roundTripOf100MiB() throws {
        let dir = ScratchDirectory()
        try BlobStoreContract.roundTrip(try Self.subject(dir), size: 100 << 20, seed: 9)
    }

    @Test(arguments: [1, ContentStore.defaultChunkSize + 1]) func badSourcesLeaveNoBlob(size: Int) throws {
        let dir = ScratchDirectory()
        try BlobStoreContract.badSourcesLeaveNoBlob(try Self.subject(dir), size: size)
    }

    @Test(arguments: [5000, 3 * ContentStore.defaultChunkSize]) func damageIsNamed(size: Int) throws {
        let dir = ScratchDirectory()
        try BlobStoreContract.damageIsNamed(try Self.subject(dir), size: size)
    }

    /// One 256 MiB put and get in a process of its own stay within the store's buffers
    /// (BlobStoreContract.streamingMemory).
    @Test func streamingMemoryIsBounded() throws {
        let dir = ScratchDirectory()
        var n = 0
        try BlobStoreContract.streamingMemory(kind: "lmdb", location: { n += 1; return dir.file("archive-\(n)") })
    }

    @Test func locationNamesTheDirectory() throws {
        let dir = ScratchDirectory()
        let s = try Self.subject(dir)
        #expect(s.store.location == .lmdb(directory: dir.file("archive")))
        #expect(s.store.location.kind == "lmdb")
    }
}
