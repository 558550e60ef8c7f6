import CaptureFormat
import Foundation
import Ground
@testable import Ingest
import Testing
import Verify

/// Issue 12 (a): ingest's snapshot carries the listing its walk saw (`CaptureWalk.listing`:
/// every entry of the capture folder's delivery file, `evidence/` and `disclosure/`, symlinks
/// with their targets), so presence and listing checks answer from the walk. Each capture of a
/// faulted dump is walked and its files read (as ingest stages them); then the dump changes —
/// a file and a folder added to `evidence/`, a bundle added, every sidecar and the ring folder
/// removed — and the snapshot's report is still byte for byte the one the folder gave before.
@Suite struct WalkListingTests {
    @Test func changesAfterTheWalkDoNotChangeTheReport() throws {
        let (root, _, verifier) = try DumpFixture.synthesized("walk-listing", stills: 2, seed: 43, faults: DumpFixture.stillFaults)
        let captures = Ingestor.discover([root]).captures.filter { $0.captureFolder != nil }
        #expect(captures.count >= DumpFixture.stillFaults.count)
        var expected: [[UInt8]] = []
        var snapshots: [CaptureSnapshot] = []
        var symlinks = 0
        for location in captures {
            expected.append(verifier.verify(location).jsonBytes())
            let walk = Ingestor.walk(location)
            var files: [String: CaptureSnapshot.File] = [:]
            for f in walk.files {
                let bytes = try f.open().readAll()
                files[f.path] = .init(id: ContentID.sha256(of: bytes), source: MemoryByteSource(bytes), bytes: bytes)
            }
            symlinks += walk.entries?.filter { $0.status.kind == .symlink }.count ?? 0
            snapshots.append(CaptureSnapshot(location: location, files: files, listing: walk.listing(stagedSizes: [:])))
        }
        #expect(symlinks > 0, "the faulted dump has symlinks in evidence/ (their targets come from the walk)")

        // After the walk: the dump changes under every capture.
        let fm = FileManager.default
        for location in captures {
            let folder = try #require(location.captureFolder)
            let evidence = folder + "/evidence"
            if fm.fileExists(atPath: evidence) {
                for name in (try? fm.contentsOfDirectory(atPath: evidence)) ?? [] { try? fm.removeItem(atPath: evidence + "/" + name) }
                _ = fm.createFile(atPath: evidence + "/late-arrival.bin", contents: Data([1, 2, 3]))
                try? fm.createDirectory(atPath: evidence + "/late-folder", withIntermediateDirectories: false)
            }
            if fm.fileExists(atPath: folder + "/disclosure") {
                _ = fm.createFile(atPath: folder + "/disclosure/late.bundle.json", contents: Data("{}".utf8))
            }
        }
        for (snapshot, want) in zip(snapshots, expected) {
            let got = verifier.verify(snapshot).jsonBytes()
            #expect(got == want, "\(snapshot.location.deliveryFile): the report changed with the dump after the walk")
        }
    }

    /// `verify`'s way (`CaptureVerifier.verifyWalked`: one walk, each file read once, the walk's
    /// listing) gives every capture of a faulted dump the report the path-based verifier gives,
    /// media measurements included; with a 1-byte inline limit (every file through its
    /// descriptor) too.
    @Test func verifyFromOneWalkGivesThePathBasedReport() throws {
        let (root, _, verifier) = try DumpFixture.synthesized("walk-verify", stills: 2, seed: 47, faults: DumpFixture.stillFaults, media: true)
        let captures = Ingestor.discover([root]).captures
        #expect(captures.count >= DumpFixture.stillFaults.count)
        for location in captures {
            let want = verifier.verify(location).jsonBytes()
            #expect(verifier.verifyWalked(location).jsonBytes() == want, "\(location.deliveryFile)")
            #expect(verifier.verifyWalked(location, inlineLimit: 1).jsonBytes() == want, "\(location.deliveryFile), streamed")
        }
    }
}
