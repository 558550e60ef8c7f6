import C2PA
import Crypto
import Foundation
import Testing
@testable import Verify

/// Merkle-tree BMFF hashes against c2pa-rs: mdat-block trees signed by c2pa-rs (c2pa-python,
/// core.merkle_tree_chunk_size_in_kb: leaves in the map, or proofs in `merkle` uuid boxes) and
/// fragment trees signed by our writer (`signFragmentedMP4`: leaves or root with proofs,
/// `initHash`), with tampered copies (a flip in an mdat, in a fragment, in a proof; a merkle box
/// removed). Both verifiers read every file; state and failure codes must be equal.
@Suite struct C2PABMFFMerkleTests {
    static func fragmented() throws -> [UInt8] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-merkle-\(getpid())-fragmented.mp4")
        if !FileManager.default.fileExists(atPath: out.path) {
            let tmp = out.deletingLastPathComponent().appendingPathComponent("\(UUID().uuidString).mp4")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            p.arguments = ["-loglevel", "error", "-y", "-threads", "1", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-t", "2",
                           "-c:v", "libx264", "-g", "10", "-movflags", "frag_keyframe+empty_moov+default_base_moof", tmp.path]
            try p.run()
            p.waitUntilExit()
            if rename(tmp.path, out.path) != 0 { try? FileManager.default.removeItem(at: tmp) }
        }
        return [UInt8](try Data(contentsOf: out))
    }

    static func boxes(_ b: [UInt8]) throws -> [BMFFBox] { try BMFFBox.parse(MemoryByteSource(b)) }

    static func merkleBoxes(_ b: [UInt8]) throws -> [BMFFBox] {
        try boxes(b).filter { box in
            guard box.type == "uuid", box.userType == BMFFBox.c2paUserType else { return false }
            let at = Int(box.bodyRange.lowerBound) + 4
            return Array(b[at..<(at + 7)]) == Array("merkle".utf8) + [0]
        }
    }

    @Test func merkleHashesAgreeWithC2paRs() throws {
        guard let python = C2PAReferenceAgreementTests.python else { print("no Python venv with c2pa-python: skipped"); return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-merkle-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("cases"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = C2PAValidatorTests()
        let plain = dir.appendingPathComponent("plain.mp4"), frag = dir.appendingPathComponent("fragmented.mp4")
        try Data(try t.media("mp4")).write(to: plain)
        try Data(try Self.fragmented()).write(to: frag)
        let specs = ["\(plain.path):video/mp4:es256:leaves.mp4:merkle=1,0", "\(plain.path):video/mp4:es256:proofs.mp4:merkle=1,3",
                     "\(frag.path):video/mp4:es256:fragmented.mp4:merkle=1,0"]
        let signed = try JSONDecoder().decode(C2PAFormatAgreementTests.SignRun.self, from: try PeerScript.run(
            python, script: "format_fixtures.py", ["sign", dir.appendingPathComponent("peer").path] + specs))
        for s in signed.files { #expect(s.error == nil, "\(s.name): \(s.error ?? "")") }
        func peerFile(_ n: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent("peer/" + n))) }
        func flipMdat(_ b: [UInt8], _ k: Int = 0) throws -> [UInt8] {
            let m = try #require(try Self.boxes(b).filter { $0.type == "mdat" }.dropFirst(k).first)
            return C2PAFormatAgreementTests.flip(b, at: Int(m.range.lowerBound) + Int(m.range.count) / 2)
        }
        func flipLongestProof(_ b: [UInt8]) throws -> [UInt8] {
            let m = try #require(try Self.merkleBoxes(b).max { $0.range.count < $1.range.count })
            return C2PAFormatAgreementTests.flip(b, at: Int(m.range.upperBound) - 1)
        }
        func dropMerkleBox(_ b: [UInt8]) throws -> [UInt8] {
            let m = try #require(try Self.merkleBoxes(b).last)
            return Array(b[..<Int(m.range.lowerBound)]) + Array(b[Int(m.range.upperBound)...])
        }
        let leaves = try peerFile("leaves.mp4"), proofs = try peerFile("proofs.mp4")
        let b = try t.builder(timestamp: false)
        let oursLeaves = try b.signFragmentedMP4(try Self.fragmented())
        let oursRoot = try b.signFragmentedMP4(try Self.fragmented(), stored: .root)
        let oursNoFileHash = try b.signFragmentedMP4(try Self.fragmented(), stored: .root, initHash: true, fileHash: false)
        #expect(try Self.merkleBoxes(oursRoot).count >= 5)
        // The manifest box's merkle offset set to the first merkle box (the specification's
        // meaning; no hash covers the field): still intact in both.
        func withMerkleOffset(_ b: [UInt8], _ v: UInt64) throws -> [UInt8] {
            let m = try #require(try Self.boxes(b).first { $0.type == "uuid" && $0.userType == BMFFBox.c2paUserType })
            var out = b
            let at = Int(m.range.lowerBound) + 8 + 16 + 4 + 9
            out.replaceSubrange(at..<(at + 8), with: (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) })
            return out
        }
        // Track-chunk trees (timed media): the video track's chunks as leaves.
        let trackLeaves = try b.signTrackMerkleMP4(try t.media("mp4"))
        let trackRootOnly = try b.signTrackMerkleMP4(try t.media("mp4"), stored: .root, fileHash: false)
        func flipSample(_ bytes: [UInt8], track: UInt32) throws -> [UInt8] {
            let tables = try BMFFSampleTables(source: MemoryByteSource(bytes), tree: try Self.boxes(bytes))
            var first: Range<UInt64>?
            try #require(tables.tracks[track]).forEachSample { _, r throws(HashAssertionError) in if first == nil { first = r } }
            let r = try #require(first)
            return C2PAFormatAgreementTests.flip(bytes, at: Int(r.lowerBound) + Int(r.count) / 2)
        }
        // A merkle-only hash over the video track binds nothing else: an audio sample flipped is
        // intact in both (the map covers track 1 alone; there is no file hash).
        let audioFlip = try flipSample(trackRootOnly, track: 2)
        let firstMerkle = UInt64(try #require(try Self.merkleBoxes(oursRoot).first).range.lowerBound)
        let pointed = try withMerkleOffset(oursRoot, firstMerkle)
        let cases: [(String, [UInt8], Bool)] = [ // name, bytes, intact?
            ("c2pa-rs mdat leaves", leaves, true), ("c2pa-rs mdat leaves mdat flip", try flipMdat(leaves), false),
            ("c2pa-rs mdat proofs", proofs, true), ("c2pa-rs mdat proofs mdat flip", try flipMdat(proofs), false),
            ("c2pa-rs mdat proofs proof flip", try flipLongestProof(proofs), false),
            ("c2pa-rs fragmented with mdat maps", try peerFile("fragmented.mp4"), false),
            ("ours fragments leaves", oursLeaves, true), ("ours fragments leaves fragment flip", try flipMdat(oursLeaves, 2), false),
            ("ours fragments root", oursRoot, true), ("ours fragments root fragment flip", try flipMdat(oursRoot, 1), false),
            ("ours fragments root proof flip", try flipLongestProof(oursRoot), false),
            ("ours fragments root box removed", try dropMerkleBox(oursRoot), false),
            ("ours fragments root, merkle offset set", pointed, true),
            ("ours fragments root only", oursNoFileHash, true),
            ("ours track chunks root only, audio sample flip (not bound)", audioFlip, true),
            ("ours track chunks leaves", trackLeaves, true), ("ours track chunks leaves, video sample flip", try flipSample(trackLeaves, track: 1), false),
            ("ours track chunks root only", trackRootOnly, true),
            ("ours track chunks root only, video sample flip", try flipSample(trackRootOnly, track: 1), false),
            ("ours track chunks root only, proof flip", try flipLongestProof(trackRootOnly), false), ("ours fragments root only flip", try flipMdat(oursNoFileHash, 3), false),
        ]
        // Any other non-zero offset is ours to refuse (c2pa-rs does not read the field).
        let wrong = C2PAValidator(signerAnchors: .none).validate(source: MemoryByteSource(try withMerkleOffset(oursRoot, firstMerkle + 1)))
        #expect(wrong.integrity == .tampered && wrong.failureCodes.contains(C2PAValidator.merkleOffsetUnexpected), "\(wrong.failureCodes)")
        let anchors = try String(contentsOfFile: signed.anchors, encoding: .utf8) + (try C2PAValidatorTests.pki.get()).root.pem
        try anchors.write(to: dir.appendingPathComponent("anchors.pem"), atomically: true, encoding: .utf8)
        var args = ["read", dir.appendingPathComponent("anchors.pem").path]
        for (i, c) in cases.enumerated() {
            let p = dir.appendingPathComponent("cases/\(i).mp4")
            try Data(c.1).write(to: p)
            args.append("\(p.path):video/mp4")
        }
        let peer = try JSONDecoder().decode(C2PAFormatAgreementTests.ReadRun.self, from: try PeerScript.run(python, script: "format_fixtures.py", args))
        try #require(peer.files.count == cases.count)
        let v = C2PAValidator(signerAnchors: try TrustAnchors(pem: anchors))
        let agree = C2PAReferenceAgreementTests()
        for (c, ref) in zip(cases, peer.files) {
            let r = v.validate(source: MemoryByteSource(c.1))
            print("merkle \(c.0): ours \(r.integrity)/\(r.trust) \(r.failure.map { "\($0.code) (\($0.explanation ?? ""))" }) | c2pa-rs \(ref.state) \(ref.failure) \(ref.error ?? "")")
            #expect(agree.ours(r) == ref.state, "\(c.0): ours \(r.integrity) \(r.failureCodes), c2pa-rs \(ref.state) \(ref.failure)")
            #expect(Set(r.failureCodes) == Set(ref.failure), "\(c.0)")
            #expect(!r.codes.contains("assertion.bmffHash.unsupported"), "\(c.0)")
            if c.2 {
                #expect(r.integrity == .intact && r.codes.contains("assertion.bmffHash.match"), "\(c.0): \(r.failureCodes)")
            } else {
                #expect(r.integrity == .tampered && r.failureCodes.contains("assertion.bmffHash.mismatch"), "\(c.0): \(r.failureCodes)")
            }
        }
    }
}
