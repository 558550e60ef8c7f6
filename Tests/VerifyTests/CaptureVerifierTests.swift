import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// `CaptureVerifier` over dumps made with the real writers: every sidecar state, unreferenced
/// files, symlinks and `..` paths, disclosure bundle failures, unsigned / malformed /
/// unreadable items, and the single-read media digest.
@Suite struct CaptureVerifierTests {
    @Test func honestCaptureReportsEveryFact() throws {
        let f = CaptureDumpFixture()
        let jpeg = try f.seal()
        let r = try f.verify()
        #expect(r.error == nil)
        #expect(r.integrity == .intact)
        #expect(r.signer?.trust == .trusted)
        #expect(r.signer?.subject.contains("Device 7") == true)
        #expect(r.kind == "still")
        #expect(r.captureTime == "2026-11-30T14:03:27.123Z")
        #expect(r.timeRung == "exact-ms")
        #expect(r.sha256 == ContentID.sha256(of: jpeg))
        #expect(r.size == UInt64(jpeg.count))
        #expect(r.recordId != nil && r.recordId != r.sha256)
        #expect(r.recordAssertion == "present")
        #expect(r.contextTree == "present")
        #expect(r.states == ["audio": "verified", "sensors": "verified", "ring": "verified", "depth": "verified",
                             "second-view": "verified"])
        #expect(r.sidecar("ring")?.actualSha256 == CaptureDumpFixture.ringDigest)
        #expect(r.sidecar("audio")?.file == "captures/\(CaptureDumpFixture.captureId)/evidence/audio.caf")
        #expect(r.unreferenced.isEmpty)
        let cap = "captures/\(CaptureDumpFixture.captureId)/"
        #expect(r.disclosure.map(\.file) == [cap + "disclosure/full.bundle.json", cap + "disclosure/short.bundle.json"])
        #expect(r.disclosure.allSatisfy { $0.result == "verified" && $0.failures.isEmpty })
        #expect(r.disclosure.first { $0.profile == "short" }?.openedLeaves == 6)
        #expect(r.streamedChunks?.state == "absent")
        #expect(r.context?.mainsHz == 50 && r.context?.mainsHzNote == "region-derived")
        #expect(r.context?.captureToSignatureMs == 2310)
        #expect(r.context?.poseTrace == .init(count: 2, rateHz: 50, startOffsetMs: -500))
        #expect(r.context?.lens == "telephoto 6.86 mm")
        #expect(r.limits.contains { $0.hasPrefix("poseTrace:") })
        #expect(!r.limits.contains { $0.hasPrefix("streamedChunks:") })
        #expect(!r.needsAttention)
        // Files: the media, four sidecar files, seven frames, two bundles, each with its digest.
        #expect(r.files.count == 1 + 4 + 7 + 2)
        #expect(r.files.first { $0.role == "media" }?.relativePath == "IMG_20261130_140327_123.jpg")
        #expect(r.files.filter { $0.role == "ring-frame" }.count == 7)
        for file in r.files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file.path)))
            #expect(file.sha256 == ContentID.sha256(of: bytes), "\(file.path)")
            #expect(file.size == UInt64(bytes.count))
        }
        #expect(Set(r.files.map(\.role)) == ["media", "audio", "sensors", "depth", "second-view", "ring-frame", "bundle"])
    }

    @Test func mismatchMissingAndRingChanges() throws {
        let f = CaptureDumpFixture()
        try f.seal()
        f.write(f.evidence + "/audio.caf", Array("other audio".utf8))
        try FileManager.default.removeItem(atPath: f.evidence + "/sensors.jsonl")
        f.write(f.evidence + "/ring/frame-p5.jpg", Array("extra frame".utf8))
        try FileManager.default.removeItem(atPath: f.evidence + "/depth.png")
        let r = try f.verify()
        #expect(r.integrity == .intact)
        #expect(r.states == ["audio": "mismatch", "sensors": "missing", "ring": "mismatch", "depth": "missing",
                             "second-view": "verified"])
        #expect(r.sidecar("audio")?.actualSha256 == ContentID.sha256(of: Array("other audio".utf8)))
        #expect(r.sidecar("audio")?.committedSha256 == CaptureDumpFixture.digest(of: "audio.caf"))
        #expect(r.needsAttention)
    }

    @Test func uncommittedFailedAndNeverRecorded() throws {
        let f = CaptureDumpFixture()
        var rec = CaptureDumpFixture.record()
        rec.appVersion = AppVersion("0.24.9")!
        rec.evidence.rawPcm = .collected(path: CaptureDumpFixture.device + "/evidence/audio.caf", sha256: nil)
        rec.evidence.sensorLog = .failed
        rec.evidence.ringBufferDir = .neverRecorded
        rec.depth = .absent(reason: "unsupported-hardware")
        try f.seal(record: rec)
        let r = try f.verify()
        #expect(r.states == ["audio": "uncommitted", "sensors": "failed", "ring": "never-recorded", "depth": "never-recorded",
                             "second-view": "verified"])
        // Files present for sinks that are failed / never-recorded are unreferenced, never matched.
        #expect(r.unreferenced == ["depth.png", "ring/frame-m1.jpg", "ring/frame-m2.jpg", "ring/frame-m3.jpg", "ring/frame-p1.jpg",
                                   "ring/frame-p2.jpg", "ring/frame-p3.jpg", "ring/frame-p4.jpg", "sensors.jsonl"])
        #expect(r.context?.depth == "absent: unsupported-hardware")
        #expect(!r.needsAttention) // uncommitted is reported, not counted as a mismatch
    }

    @Test func unreferencedFilesAreListedAndHashed() throws {
        let f = CaptureDumpFixture()
        try f.seal()
        f.write(f.evidence + "/notes.txt", Array("stray".utf8))
        try FileManager.default.createDirectory(atPath: f.evidence + "/extra", withIntermediateDirectories: true)
        f.write(f.evidence + "/extra/x.bin", [1, 2, 3])
        let r = try f.verify()
        #expect(r.unreferenced == ["extra/x.bin", "notes.txt"])
        let u = r.files.filter { $0.role == "unreferenced" }
        #expect(u.map(\.relativePath).sorted() == ["evidence/extra/x.bin", "evidence/notes.txt"])
        #expect(u.first { $0.relativePath == "evidence/extra/x.bin" }?.sha256 == ContentID.sha256(of: [1, 2, 3] as [UInt8]))
        #expect(!r.needsAttention)
    }

    @Test func symlinkEscapingTheDumpIsNotFollowed() throws {
        let f = CaptureDumpFixture()
        try f.seal()
        let outside = NSTemporaryDirectory() + "verify-outside-" + UUID().uuidString
        f.write(outside, CaptureDumpFixture.files[0].1) // the committed audio bytes, outside the dump
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.removeItem(atPath: f.evidence + "/audio.caf")
        try FileManager.default.createSymbolicLink(atPath: f.evidence + "/audio.caf", withDestinationPath: outside)
        // A link inside the dump is not followed either.
        try FileManager.default.removeItem(atPath: f.evidence + "/depth.png")
        try FileManager.default.createSymbolicLink(atPath: f.evidence + "/depth.png", withDestinationPath: "second-view.jpg")
        let r = try f.verify()
        #expect(r.sidecar("audio")?.state == "missing")
        #expect(r.sidecar("audio")?.notes == ["symlink-escapes-dump"])
        #expect(r.sidecar("audio")?.actualSha256 == nil)
        #expect(r.sidecar("depth")?.state == "missing")
        #expect(r.sidecar("depth")?.notes == ["symlink"])
        #expect(!r.files.contains { $0.path.hasSuffix("audio.caf") || $0.path == outside })
        #expect(r.needsAttention)
    }

    @Test func dotDotRecordedPathIsReportedAndMappedByName() throws {
        let f = CaptureDumpFixture()
        var rec = CaptureDumpFixture.record()
        rec.evidence.rawPcm = .collected(path: "/var/mobile/../../../etc/audio.caf", sha256: CaptureDumpFixture.digest(of: "audio.caf"))
        rec.evidence.sensorLog = .collected(path: "../sensors.jsonl", sha256: CaptureDumpFixture.digest(of: "sensors.jsonl"))
        try f.seal(record: rec)
        let r = try f.verify()
        #expect(r.sidecar("audio")?.state == "verified")
        #expect(r.sidecar("audio")?.notes == ["path-parent-traversal"])
        #expect(r.sidecar("audio")?.recordedPath == "/var/mobile/../../../etc/audio.caf")
        #expect(r.sidecar("sensors")?.notes == ["path-relative", "path-parent-traversal"])
        #expect(r.sidecar("sensors")?.file == "captures/\(CaptureDumpFixture.captureId)/evidence/sensors.jsonl")
    }

    @Test func disclosureBundleFailuresAreNamed() throws {
        let f = CaptureDumpFixture()
        try f.seal()
        let dir = f.folder + "/disclosure/"
        // A flipped value in the short bundle: that leaf fails, the others stay verified.
        var short = try DisclosureBundle(json: Data(contentsOf: URL(fileURLWithPath: dir + "short.bundle.json")))
        let country = try #require(short.opened.firstIndex { $0.claimId == "location.country" })
        short.opened[country].value = "FR"
        f.write(dir + "short.bundle.json", [UInt8](short.encodedJSON()))
        // A bundle claiming another root.
        var full = try DisclosureBundle(json: Data(contentsOf: URL(fileURLWithPath: dir + "full.bundle.json")))
        full.root = String(repeating: "0", count: 64)
        f.write(dir + "rooted.bundle.json", [UInt8](full.encodedJSON()))
        // Not a bundle at all.
        f.write(dir + "junk.bundle.json", Array("{\"version\": 1".utf8))
        let r = try f.verify()
        let by = Dictionary(uniqueKeysWithValues: r.disclosure.map { (String($0.file.dropFirst("captures/\(CaptureDumpFixture.captureId)/".count)), $0) })
        #expect(by["disclosure/full.bundle.json"]?.result == "verified")
        #expect(by["disclosure/short.bundle.json"]?.result == "failed")
        #expect(by["disclosure/short.bundle.json"]?.failures.map(\.label) == ["leaf-mismatch"])
        #expect(by["disclosure/short.bundle.json"]?.failures.first?.claimId == "location.country")
        #expect(by["disclosure/rooted.bundle.json"]?.failures.map(\.label) == ["root-mismatch"])
        #expect(by["disclosure/junk.bundle.json"]?.failures.map(\.label) == ["malformed-bundle"])
        #expect(r.files.filter { $0.role == "bundle" }.count == 4)
        #expect(!r.needsAttention) // bundles are reported; the capture's integrity is unchanged
    }

    @Test func bundlesWithoutASignedTreeAreNotVerified() throws {
        let f = CaptureDumpFixture()
        try f.seal(contextTree: false)
        let r = try f.verify()
        #expect(r.contextTree == "absent")
        #expect(r.disclosure.count == 2)
        #expect(r.disclosure.allSatisfy { $0.result == "failed" && $0.failures.map(\.label) == [CaptureVerifier.noSignedRootLabel] })
    }

    @Test func noRecordAssertion() throws {
        let f = CaptureDumpFixture()
        try f.seal(record: nil, bundles: false)
        let r = try f.verify()
        #expect(r.integrity == .intact)
        #expect(r.recordAssertion == "absent")
        #expect(r.kind == "still") // from the container
        #expect(r.sidecars.isEmpty && r.captureTime == nil && r.context == nil)
        // Nothing names the evidence files, so all are unreferenced (and hashed for the archive).
        #expect(r.unreferenced == ["audio.caf", "depth.png", "ring/frame-m1.jpg", "ring/frame-m2.jpg", "ring/frame-m3.jpg",
                                   "ring/frame-p1.jpg", "ring/frame-p2.jpg", "ring/frame-p3.jpg", "ring/frame-p4.jpg",
                                   "second-view.jpg", "sensors.jsonl"])
        #expect(r.files.filter { $0.role == "unreferenced" }.count == 11)
    }

    @Test func malformedRecordAndContextTreeAreReportedNotThrown() throws {
        let f = CaptureDumpFixture()
        let extra: [(label: String, content: CBOR)] = [
            (CaptureRecord.assertionLabel, .textMap([("recordVersion", .int(1))])),
            (ContextTreeAssertion.label, .textMap([("version", .int(2))])),
        ]
        let jpeg = try CaptureDumpFixture.builder(extra: extra).signJPEG(try C2PAValidatorTests().media("jpg"))
        f.write(f.delivery, jpeg)
        let r = try f.verify()
        #expect(r.integrity == .intact) // the bytes are as signed; the app's record is what is wrong
        #expect(r.recordAssertion == "malformed")
        #expect(r.recordError?.code == "record.missingKey")
        #expect(r.contextTree == "malformed")
        #expect(r.sidecars.isEmpty && r.captureTime == nil)
        #expect(r.unreferenced.count == 11) // nothing names the evidence files
    }

    @Test func tamperedDeliveryFile() throws {
        let f = CaptureDumpFixture()
        var jpeg = try f.seal()
        jpeg[jpeg.count - 10] ^= 0x01
        f.write(f.delivery, jpeg)
        let r = try f.verify()
        #expect(r.integrity == .tampered)
        #expect(r.statusCodes.failure.map(\.code) == ["assertion.dataHash.mismatch"])
        #expect(r.sha256 == ContentID.sha256(of: jpeg))
        #expect(r.states["audio"] == "verified") // the record is still read and reported
        #expect(r.needsAttention)
    }

    @Test func unsignedMalformedAndUnreadableItems() throws {
        let f = CaptureDumpFixture()
        let plain = try C2PAValidatorTests().media("jpg")
        let v = try CaptureDumpFixture.verifier()
        let loose = f.root + "/plain.jpg"
        f.write(loose, plain)
        let u = v.verify(CaptureLocation(deliveryFile: loose, captureFolder: nil, dumpRoot: f.root))
        #expect(u.integrity == .unsigned)
        #expect(u.recordId == ContentID.sha256(of: plain) && u.sha256 == u.recordId)
        #expect(u.recordAssertion == nil && u.error == nil)
        #expect(u.needsAttention)

        // A manifest store whose JUMBF is cut short: malformed.
        var jpeg = try f.seal(bundles: false)
        let at = jpeg.firstRange(of: Array("c2pa.claim".utf8))!.lowerBound
        jpeg[at - 12] ^= 0xFF // inside a box header in the store
        f.write(f.delivery, jpeg)
        let m = v.verify(f.location)
        #expect(m.integrity == .malformed || m.integrity == .tampered)
        #expect(m.error == nil && m.sha256 == ContentID.sha256(of: jpeg))

        // Not a file, a dangling symlink, nothing: items with an error, never a throw.
        try FileManager.default.createDirectory(atPath: f.root + "/dir.jpg", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: f.root + "/link.jpg", withDestinationPath: "/nonexistent/x.jpg")
        let codes = ["dir.jpg", "link.jpg", "gone.jpg"].map {
            v.verify(CaptureLocation(deliveryFile: f.root + "/" + $0, captureFolder: nil, dumpRoot: f.root)).error?.code
        }
        #expect(codes == ["verify.notRegularFile", "verify.symlink", "io.cannotOpen"])
        // A file that is not JPEG or BMFF.
        f.write(f.root + "/text.jpg", Array("hello".utf8))
        let t = v.verify(CaptureLocation(deliveryFile: f.root + "/text.jpg", captureFolder: nil, dumpRoot: f.root))
        #expect(t.integrity == .malformed && t.statusCodes.failure.map(\.code) == ["general.error"])
    }

    @Test func knownDigestsReplaceReads() throws {
        let f = CaptureDumpFixture()
        let jpeg = try f.seal()
        // The caller's digest wins: a wrong one for audio must show as mismatch (the file was not read).
        let wrong = id(String(repeating: "1", count: 64))
        let r = try f.verify(knownDigests: [f.evidence + "/audio.caf": wrong, f.delivery: ContentID.sha256(of: jpeg),
                                            f.evidence + "/ring/frame-m1.jpg": wrong])
        #expect(r.sidecar("audio")?.state == "mismatch")
        #expect(r.sidecar("audio")?.actualSha256 == wrong)
        #expect(r.sidecar("ring")?.state == "mismatch")
        #expect(r.files.first { $0.role == "audio" }?.sha256 == wrong)
        #expect(r.sha256 == ContentID.sha256(of: jpeg))
    }

    @Test func knownContentsReplaceBundleReads() throws {
        let f = CaptureDumpFixture()
        try f.seal()
        let full = f.folder + "/disclosure/full.bundle.json"
        let original = try #require(FileManager.default.contents(atPath: full).map { [UInt8]($0) })
        let digest = ContentID.sha256(of: original)
        // The file now holds garbage: given the caller's copy and digest, the verifier checks
        // those bytes (not re-read), and lists the file under the caller's digest.
        f.write(full, Array("not a bundle".utf8))
        let v = try CaptureDumpFixture.verifier()
        let r = v.verify(f.location, knownDigests: [full: digest], knownContents: [full: original])
        let entry = try #require(r.disclosure.first { $0.file.hasSuffix("disclosure/full.bundle.json") })
        #expect(entry.result == "verified" && entry.failures.isEmpty && entry.profile == "full")
        #expect(r.files.first { $0.path == full }?.sha256 == digest)
        #expect(r.files.first { $0.path == full }?.size == UInt64(original.count))
        // Without them, the file on disk is read: malformed.
        let plain = v.verify(f.location)
        #expect(plain.disclosure.first { $0.file.hasSuffix("disclosure/full.bundle.json") }?.failures.map(\.label) == ["malformed-bundle"])
        #expect(plain.files.first { $0.path == full }?.sha256 == ContentID.sha256(of: Array("not a bundle".utf8)))
        // Contents without a digest are not used (the digest names what is stored).
        let noDigest = v.verify(f.location, knownContents: [full: original])
        #expect(noDigest.disclosure.first { $0.file.hasSuffix("disclosure/full.bundle.json") }?.result == "failed")
    }

    @Test func looseFileOrSeveralDeliveryFilesPairWithNoEvidence() throws {
        let f = CaptureDumpFixture()
        let jpeg = try f.seal()
        f.write(f.folder + "/IMG_second.jpg", jpeg)
        let locations = try CaptureVerifier.discover(f.root)
        #expect(locations.map(\.deliveryFile) == [f.folder + "/IMG_20261130_140327_123.jpg", f.folder + "/IMG_second.jpg"])
        #expect(locations.allSatisfy { $0.captureFolder == nil && $0.dumpRoot == EvidenceLayout.normalize(f.root) })
        let r = try CaptureDumpFixture.verifier().verify(locations[0])
        #expect(r.states == ["audio": "missing", "sensors": "missing", "ring": "missing", "depth": "missing", "second-view": "missing"])
        #expect(r.sidecar("audio")?.notes == ["no-capture-folder"])
        #expect(r.disclosure.isEmpty)
    }

    @Test func discoverFileFolderAndDump() throws {
        let f = CaptureDumpFixture()
        try f.seal()
        let root = EvidenceLayout.normalize(f.root)
        let one = CaptureLocation(deliveryFile: EvidenceLayout.normalize(f.delivery), captureFolder: EvidenceLayout.normalize(f.folder),
                                  dumpRoot: root)
        #expect(try CaptureVerifier.discover(f.delivery) == [one])
        #expect(try CaptureVerifier.discover(f.folder) == [one])
        #expect(try CaptureVerifier.discover(f.root) == [one])
        #expect(try CaptureVerifier.discover(f.root + "/captures") == [CaptureLocation(deliveryFile: one.deliveryFile,
                                                                                         captureFolder: one.captureFolder,
                                                                                         dumpRoot: root + "/captures")])
        // A symlinked folder is not entered; ring frames (in evidence/) are never captures.
        let other = NSTemporaryDirectory() + "verify-other-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: other) }
        f.write(other + "/IMG_x.jpg", [0xFF, 0xD8])
        try FileManager.default.createSymbolicLink(atPath: f.root + "/captures/linked", withDestinationPath: other)
        #expect(try CaptureVerifier.discover(f.root) == [one])
        #expect(throws: DiscoveryError.notFound(f.root + "/nope")) { try CaptureVerifier.discover(f.root + "/nope") }
    }

    @Test func mediaDigestComesFromTheValidationRead() throws {
        // JPEG: the data-hash pass plus the header walk cover the file; only header bytes the
        // walk skipped (before the first SOS) are read a second time.
        let f = CaptureDumpFixture()
        let jpeg = try f.seal()
        let hs = HashingByteSource(try FileByteSource(path: f.delivery))
        let report = C2PAValidator().validate(source: hs)
        #expect(report.integrity == .intact)
        #expect(try hs.finish() == MessageDigest.sha256(jpeg))
        // The real SOS, found by walking the segments' lengths: `FF DA` may also occur inside a
        // segment's payload (the signature's random bytes), which made this test flaky.
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        try #require(at + 1 < jpeg.count && jpeg[at] == 0xFF && jpeg[at + 1] == 0xDA)
        let sos = at
        #expect(hs.extraBytesRead <= Int64(sos))
        // MP4: the same, over a signed video.
        let mp4 = try CaptureDumpFixture.builder(extra: []).signMP4(try CaptureDumpFixture.noisyMP4())
        let path = f.root + "/v.mp4"
        f.write(path, mp4)
        let hv = HashingByteSource(try FileByteSource(path: path))
        #expect(C2PAValidator().validate(source: hv).integrity == .intact)
        #expect(try hv.finish() == MessageDigest.sha256(mp4))
        // Only box headers and metadata are read twice, never the media data.
        let mdat = try #require(mp4.firstRange(of: Array("mdat".utf8))?.lowerBound)
        let mdatSize = Int64(mp4[mdat - 4]) << 24 | Int64(mp4[mdat - 3]) << 16 | Int64(mp4[mdat - 2]) << 8 | Int64(mp4[mdat - 1])
        #expect(mdatSize > HashingByteSource.gapFill)
        #expect(hv.extraBytesRead <= Int64(mp4.count) - mdatSize)
        let rv = try CaptureDumpFixture.verifier().verify(CaptureLocation(deliveryFile: path, captureFolder: nil, dumpRoot: f.root))
        #expect(rv.kind == "video" && rv.sha256 == ContentID.sha256(of: mp4))
    }
}
