import Crypto
import Foundation
import Ground
import Ingest
import Synthesis
import Testing
import Verify

/// Issue 12 item 1: the verifier judges a capture's snapshot, never the files behind it. Every
/// file of a capture is read once into the snapshot; then every file on disk is overwritten
/// (same sizes, other bytes). Verifying the snapshot must give the report the original files
/// gave, and each source must have been read — so nothing (C2PA validation, sidecar digests,
/// bundles, libav) went back to a path.
@Suite struct SnapshotVerifyTests {
    /// Counts the reads of a memory source.
    final class CountingSource: ByteSource, @unchecked Sendable {
        let base: MemoryByteSource
        private let lock = NSLock()
        private var reads = 0
        init(_ bytes: [UInt8]) { base = MemoryByteSource(bytes) }
        var count: Int64 { base.count }
        var readCount: Int { lock.withLock { reads } }
        func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
            lock.withLock { reads += 1 }
            return try base.read(at: offset, count: count)
        }
        func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
            lock.withLock { reads += 1 }
            return try base.read(at: offset, into: buffer)
        }
    }

    @Test func aSnapshotIsJudgedNotTheFilesBehindIt() throws {
        let (root, _, verifier) = try DumpFixture.synthesized("snapshot", stills: 1, seed: 37, media: true)
        let location = try #require(Ingestor.discover([root]).captures.first)
        let folder = try #require(location.captureFolder)
        let original = verifier.verify(location)
        #expect(original.integrity == .intact && original.error == nil)
        // libav measured the files (facts, parallax): those reads are covered too.
        #expect(original.media?.contains { $0.facts != nil } == true, "\(String(describing: original.media))")
        #expect(original.parallax != nil)

        var sources: [String: CountingSource] = [:]
        var files: [String: CaptureSnapshot.File] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        for case let rel as String in enumerator {
            let path = folder + "/" + rel
            guard (try? FileSystem.status(atPath: path))?.isRegularFile == true else { continue }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let source = CountingSource(bytes)
            sources[path] = source
            files[path] = .init(id: ContentID.sha256(of: bytes), source: source, bytes: rel.hasSuffix(".bundle.json") ? bytes : nil)
            // The disk now holds other bytes under every name (same size).
            try Data(bytes.map { $0 ^ 0x5a }).write(to: URL(fileURLWithPath: path))
        }
        #expect(files.count > 10 && files[location.deliveryFile] != nil)
        let fromSnapshot = verifier.verify(CaptureSnapshot(location: location, files: files))
        #expect(fromSnapshot.jsonBytes() == original.jsonBytes(), "the snapshot's report differs from the original files'")
        #expect((sources[location.deliveryFile]?.readCount ?? 0) > 0, "the delivery file was validated from its source")
        // And the disk's new bytes really would have changed the findings.
        let fromDisk = verifier.verify(location)
        #expect(fromDisk.jsonBytes() != original.jsonBytes())
    }
}
