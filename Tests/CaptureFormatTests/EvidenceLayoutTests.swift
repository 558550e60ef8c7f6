@testable import CaptureFormat
import Foundation
import Ground
import TestLiterals
import Testing

@Suite struct EvidenceLayoutTests {
    /// A dump with one still capture: audio, sensors, a ring of 7 frames, a stray file, a
    /// symlink leaving the dump and one staying inside, and one bundle.
    static func makeDump() throws -> (root: String, capture: String) {
        let fm = FileManager.default
        let root = NSTemporaryDirectory() + "capture-layout-\(UUID().uuidString)"
        let capture = root + "/captures/c1"
        let ev = capture + "/evidence"
        try fm.createDirectory(atPath: ev + "/ring", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: capture + "/disclosure", withIntermediateDirectories: true)
        try Data("jpeg".utf8).write(to: URL(fileURLWithPath: capture + "/IMG_0001.jpg"))
        try Data("caf".utf8).write(to: URL(fileURLWithPath: ev + "/audio.caf"))
        try Data("{\"anchor\":1}\n".utf8).write(to: URL(fileURLWithPath: ev + "/sensors.jsonl"))
        for f in ["m3", "m2", "m1", "p1", "p2", "p3", "p4"] {
            try Data("frame-\(f)".utf8).write(to: URL(fileURLWithPath: ev + "/ring/frame-\(f).jpg"))
        }
        try Data("x".utf8).write(to: URL(fileURLWithPath: ev + "/notes.txt"))
        try fm.createSymbolicLink(atPath: ev + "/depth.png", withDestinationPath: "../../../../etc/passwd")
        try fm.createSymbolicLink(atPath: ev + "/second-view.jpg", withDestinationPath: "../IMG_0001.jpg")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: capture + "/disclosure/short.bundle.json"))
        return (root, capture)
    }

    @Test func recordedPathFindings() {
        #expect(RecordedPath("/var/mobile/x/evidence/audio.caf").findings.isEmpty)
        #expect(RecordedPath("/var/mobile/x/evidence/audio.caf").name == "audio.caf")
        #expect(RecordedPath("/var/mobile/x/evidence/ring/").name == "ring")
        let up = RecordedPath("/var/mobile/../../etc/passwd")
        #expect(up.findings == [.parentTraversal] && up.name == "passwd")
        #expect(RecordedPath("evidence/audio.caf").findings == [.relative])
        #expect(RecordedPath("/a/..").findings == [.parentTraversal, .noName])
        #expect(RecordedPath("/a//b").findings == [.oddComponent])
        #expect(RecordedPath("/a/b\nc").findings.contains(.controlCharacter))
        #expect(RecordedPath("").name == nil)
    }

    @Test func locatesByNameAndNeverFollowsSymlinks() throws {
        let (root, capture) = try Self.makeDump()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let layout = EvidenceLayout(captureFolder: capture, dumpRoot: root)
        let audio = layout.locate(Fixtures.device + "/evidence/audio.caf")
        #expect(audio.localPath == layout.evidenceFolder + "/audio.caf")
        #expect(audio.entry == .file(size: 3))
        #expect(try EvidenceLayout.sha256(ofFileAt: audio.localPath!) == ContentID.sha256(of: Array("caf".utf8)))
        // A traversal in the recorded path is reported; the name still maps inside evidence/.
        let odd = layout.locate("/private/var/../../sensors.jsonl")
        #expect(odd.recorded.findings == [.parentTraversal])
        #expect(odd.localPath == layout.evidenceFolder + "/sensors.jsonl")
        // Symlinks: reported with whether they escape the dump, never opened.
        #expect(layout.locate("/x/depth.png").entry == .symlink(target: "../../../../etc/passwd", escapesDump: true))
        #expect(layout.locate("/x/second-view.jpg").entry == .symlink(target: "../IMG_0001.jpg", escapesDump: false))
        #expect(throws: EvidenceReadError.symlink(layout.evidenceFolder + "/depth.png")) {
            try EvidenceLayout.sha256(ofFileAt: layout.evidenceFolder + "/depth.png")
        }
        #expect(layout.locate("/x/missing.caf").entry == .absent)
    }

    @Test func ringDigestAndUnreferenced() throws {
        let (root, capture) = try Self.makeDump()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let layout = EvidenceLayout(captureFolder: capture, dumpRoot: root)
        let ring = layout.evidenceFolder + "/ring"
        let (digest, scan) = try layout.ringDigest(at: ring)
        #expect(scan.frames == ["frame-m1.jpg", "frame-m2.jpg", "frame-m3.jpg", "frame-p1.jpg", "frame-p2.jpg", "frame-p3.jpg", "frame-p4.jpg"])
        let expected = try RingListing.digest(scan.frames.map { ($0, ContentID.sha256(of: Array("frame-\($0.dropFirst(6).prefix(2))".utf8))) })
        #expect(digest == expected)
        // Renaming a frame changes the digest; a symlinked frame is rejected, not hashed.
        try FileManager.default.moveItem(atPath: ring + "/frame-p4.jpg", toPath: ring + "/frame-p5.jpg")
        #expect(try layout.ringDigest(at: ring).digest != digest)
        try FileManager.default.createSymbolicLink(atPath: ring + "/frame-p6.jpg", withDestinationPath: "/etc/hostname")
        let scan2 = layout.scanRing(at: ring)
        #expect(scan2.rejected.map(\.name) == ["frame-p6.jpg"])

        let unref = layout.unreferenced(referencedNames: ["audio.caf", "sensors.jsonl", "ring", "depth.png"])
        #expect(unref == ["notes.txt", "second-view.jpg"])

        let top = CaptureFolderContents(scanning: capture)
        #expect(top.deliveryFiles == ["IMG_0001.jpg"])
        #expect(top.bundles == ["disclosure/short.bundle.json"])
        #expect(top.hasEvidenceFolder && top.strays.isEmpty)
    }

    @Test func sinksOfARecordIncludeDepthAndSecondView() {
        let s = Fixtures.still()
        #expect(s.sinks.map(\.sink) == [.audio, .sensors, .ring, .depth, .secondView])
        #expect(s.sinks[3].record == .collected(path: Fixtures.device + "/evidence/depth.png", sha256: Fixtures.digest("depth")))
    }

    @Test func evaluateARecordAgainstTheFolder() throws {
        let (root, capture) = try Self.makeDump()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let layout = EvidenceLayout(captureFolder: capture, dumpRoot: root)
        let ringFrames = try layout.scanRing(at: layout.evidenceFolder + "/ring").frames.map {
            ($0, try EvidenceLayout.sha256(ofFileAt: layout.evidenceFolder + "/ring/" + $0))
        }
        var r = Fixtures.still()
        r.evidence = CaptureEvidence(
            rawPcm: .collected(path: Fixtures.device + "/evidence/audio.caf", sha256: ContentID.sha256(of: Array("caf".utf8))),
            sensorLog: .collected(path: "/var/../evidence/sensors.jsonl", sha256: Fixtures.digest("not the log")),
            ringBufferDir: .collected(path: Fixtures.device + "/evidence/ring/", sha256: try RingListing.digest(ringFrames)))
        let report = layout.evaluate(r)
        #expect(report.sidecars.map(\.state) == [.verified, .mismatch, .verified, .missing, .missing])
        #expect(report.sidecars[1].pathFindings == [.parentTraversal])
        #expect(report.sidecars[1].actualSha256 == ContentID.sha256(of: Array("{\"anchor\":1}\n".utf8)))
        #expect(report.sidecars[3].note == "symlink-escapes-dump")
        #expect(report.sidecars[4].note == "symlink")
        #expect(report.unreferenced == ["notes.txt"])

        // Older app: same files, no digests → uncommitted, never assumed to match.
        let old = Fixtures.still(version: "0.24.0", digests: false)
        #expect(layout.evaluate(old).sidecars.prefix(3).map(\.state) == [.uncommitted, .uncommitted, .uncommitted])
        // Failed and never-recorded sinks come from the record; the file on disk is unreferenced.
        var v = Fixtures.still()
        v.evidence.rawPcm = .failed
        v.evidence.sensorLog = .neverRecorded
        let rv = layout.evaluate(v)
        #expect(rv.sidecars.prefix(2).map(\.state) == [.failed, .neverRecorded])
        #expect(rv.unreferenced == ["audio.caf", "notes.txt", "sensors.jsonl"])
    }
}
