import CaptureFormat
import Foundation
import Ground
import Ingest
import Synthesis
import Testing
import Verify

/// Issue 12: presence and listing checks (sidecar `lstat`, the ring and unreferenced listings,
/// the bundle listing) answer from a snapshot's list of relative paths, not the file system.
/// Each capture of a faulted dump is read once into a snapshot with its listing (regular files,
/// symlinks, empty folders as `lstat` saw them); then the whole dump is moved away. The
/// snapshot's report must be byte-for-byte the report the folder gave.
@Suite struct ListingVerifyTests {
    @Test func aListedSnapshotGivesTheFolderReportWithTheFolderGone() throws {
        let (root, _, verifier) = try DumpFixture.synthesized("listing-verify", stills: 2, seed: 41, faults: DumpFixture.stillFaults)
        let captures = Ingestor.discover([root]).captures.filter { $0.captureFolder != nil }
        #expect(captures.count >= DumpFixture.stillFaults.count)
        var expected: [[UInt8]] = []
        var snapshots: [CaptureSnapshot] = []
        for location in captures {
            let folder = try #require(location.captureFolder)
            expected.append(verifier.verify(location).jsonBytes())
            var listing = CaptureListing()
            var files: [String: CaptureSnapshot.File] = [:]
            let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
            for case let rel as String in enumerator {
                let path = folder + "/" + rel
                let st = try FileSystem.status(atPath: path)
                switch st.kind {
                case .regular:
                    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                    do { let added = listing.addFile(rel, size: st.size); #expect(added) }
                    files[path] = .init(id: ContentID.sha256(of: bytes), source: MemoryByteSource(bytes),
                                        bytes: rel.hasSuffix(".bundle.json") ? bytes : nil)
                case .symlink:
                    #expect(listing.addSymlink(rel, target: PathText.encode(try FileSystem.linkTarget(atPath: path))))
                    enumerator.skipDescendants()
                case .directory:
                    do { let added = listing.addFolder(rel); #expect(added) }
                default:
                    do { let added = listing.addOther(rel); #expect(added) }
                }
            }
            snapshots.append(CaptureSnapshot(location: location, files: files, listing: listing))
        }
        // Nothing is left on disk to ask: every answer must come from the listing.
        #expect(rename(root, root + ".gone") == 0)
        defer { _ = rename(root + ".gone", root) }
        for (snapshot, want) in zip(snapshots, expected) {
            let got = verifier.verify(snapshot).jsonBytes()
            #expect(got == want, "\(snapshot.location.deliveryFile): the listed snapshot's report differs")
        }
    }

    @Test func aListingRefusesPathsOutsideItsFolder() {
        var listing = CaptureListing()
        for bad in ["", "/etc/passwd", "evidence/../x", "evidence//x", "./x", "evidence/."] {
            do { let added = listing.addFile(bad, size: 1); #expect(!added, "\(bad)") }
        }
        do { let added = listing.addFile("evidence/audio.caf", size: 3); #expect(added) }
        do { let added = listing.addFile("evidence/audio.caf/inner", size: 1); #expect(!added, "a file is not a folder") }
        do { let added = listing.addFile("evidence/audio.caf", size: 3); #expect(!added, "listed once") }
        #expect(listing.size(of: "evidence/audio.caf") == 3 && listing.size(of: "evidence") == nil)
    }
}
