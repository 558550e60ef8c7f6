@testable import CaptureFormat
import Foundation
import Ground
import TestLiterals
import Testing

@Suite struct MerkleChunkTests {
    static func leaves(_ n: Int) -> [ContentID] { (0..<n).map { Fixtures.digest("leaf-\($0)") } }

    @Test func rootsMatchPythonHashlib() throws {
        let sizes = [0, 1, 2, 3, 5, 7, 8, 13]
        let answer = try Peer.run(["merkle": sizes.map { Self.leaves($0).map(\.hex) }])
        let roots = try Peer.strings(answer, "merkle")
        #expect(roots == sizes.map { MerkleTree(leaves: Self.leaves($0)).root.hex })
        #expect(MerkleTree(leaves: []).root.hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(MerkleTree(leaves: Self.leaves(1)).root == Self.leaves(1)[0])
    }

    @Test func threeLeavesPromoteTheOddOne() {
        let l = Self.leaves(3)
        let expected = MerkleTree.parent(MerkleTree.parent(l[0], l[1]), l[2])
        #expect(MerkleTree(leaves: l).root == expected)
    }

    @Test func proofsArePositional() throws {
        for n in 1...13 {
            let tree = MerkleTree(leaves: Self.leaves(n))
            for i in 0..<n {
                let proof = try #require(tree.proof(forLeafAt: i))
                #expect(proof.verifies(leaf: tree.leaves[i], root: tree.root))
                for j in 0..<n where j != i {
                    var moved = proof
                    moved.index = j
                    #expect(!moved.verifies(leaf: tree.leaves[i], root: tree.root), "n=\(n) i=\(i) j=\(j)")
                }
                if !proof.siblings.isEmpty {
                    var flipped = proof
                    var b = flipped.siblings[0].bytes
                    b[5] ^= 1
                    flipped.siblings[0] = ContentID(digest: b)!
                    #expect(!flipped.verifies(leaf: tree.leaves[i], root: tree.root))
                    var short = proof
                    short.siblings.removeLast()
                    #expect(short.root(forLeaf: tree.leaves[i]) == nil)
                }
            }
            #expect(tree.proof(forLeafAt: n) == nil)
        }
        // Tree size is positional too: leaf 2 of 3 is promoted, of 4 it needs a sibling.
        let three = MerkleTree(leaves: Self.leaves(3))
        var p = try #require(three.proof(forLeafAt: 2))
        #expect(p.siblings.count == 1)
        p.treeSize = 4
        #expect(!p.verifies(leaf: three.leaves[2], root: three.root))
        p.treeSize = 2
        #expect(p.root(forLeaf: three.leaves[2]) == nil)
    }

    static func pattern(_ n: Int, _ mul: Int, _ add: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: $0 * mul + add) } }

    @Test func chunkHashesMatchPythonWithTrailingPartial() throws {
        let mib = StreamedChunks.chunkSize
        let videoLen = 2 * mib + 12345, audioLen = mib
        let answer = try Peer.run(["chunks": [
            ["track": "video", "length": videoLen, "mul": 31, "add": 7, "chunkSize": mib],
            ["track": "audio", "length": audioLen, "mul": 17, "add": 3, "chunkSize": mib],
        ]])
        let expected = try #require(answer["chunks"] as? [[String]])
        // Feed in awkward slices so chunk boundaries fall inside appends.
        func run(_ track: StreamedChunks.Track, _ data: [UInt8]) -> [StreamedChunks.Chunk] {
            let h = TrackChunkHasher(track: track)
            var out: [StreamedChunks.Chunk] = []
            var off = 0, step = 1
            while off < data.count {
                let end = min(data.count, off + step * 7919)
                out += h.append(Array(data[off..<end]))
                off = end
                step = step % 300 + 37
            }
            if let last = h.finish() { out.append(last) }
            return out
        }
        let video = run(.video, Self.pattern(videoLen, 31, 7))
        let audio = run(.audio, Self.pattern(audioLen, 17, 3))
        #expect(video.map(\.digest.hex) == expected[0])
        #expect(audio.map(\.digest.hex) == expected[1])
        #expect(video.map(\.byteCount) == [mib, mib, 12345])
        #expect(video.map(\.index) == [0, 1, 2])
        #expect(audio.count == 1, "a stream ending on a boundary has no empty trailing chunk")
        #expect(video[2].digest == StreamedChunks.chunkHash(track: .video, index: 2, bytes: Array(Self.pattern(videoLen, 31, 7).suffix(12345))))

        // Global completion order decides the root.
        let v = video.map(\.digest), a = audio.map(\.digest)
        let r1 = try StreamedChunks.root(video: v, audio: a, order: [.video, .audio, .video, .video])
        let r2 = try StreamedChunks.root(video: v, audio: a, order: [.video, .video, .audio, .video])
        let py = try Peer.strings(try Peer.run(["merkle": [[v[0], a[0], v[1], v[2]].map(\.hex)]]), "merkle")
        #expect(r1.hex == py[0])
        #expect(r1 != r2)
        #expect(throws: StreamedChunks.OrderError.chunksLeftOver(video: 1, audio: 0)) {
            try StreamedChunks.root(video: v, audio: a, order: [.video, .audio, .video])
        }
        #expect(throws: StreamedChunks.OrderError.tooManyChunks(.audio)) {
            try StreamedChunks.root(video: v, audio: a, order: [.audio, .audio])
        }
    }

    @Test func ringListingMatchesPython() throws {
        let frames: [(name: String, sha256: ContentID)] = ["frame-p1.jpg", "frame-m3.jpg", "frame-m1.jpg", "frame-p4.jpg", "Frame-Z.jpg", "é.jpg"]
            .map { ($0, Fixtures.digest($0)) }
        let answer = try Peer.run(["ring": [frames.map { [$0.name, $0.sha256.hex] }, []]])
        let expected = try Peer.strings(answer, "ring")
        #expect(try RingListing.digest(frames).hex == expected[0])
        #expect(try RingListing.digest([]).hex == expected[1])
        let listing = String(decoding: try RingListing.listing(frames), as: UTF8.self)
        #expect(listing.hasPrefix(Fixtures.digest("Frame-Z.jpg").hex + "  Frame-Z.jpg\n"))
        #expect(throws: RingListing.ListingError.invalidName("a/b")) { try RingListing.digest([("a/b", Fixtures.digest("x"))]) }
        #expect(throws: RingListing.ListingError.duplicateName("a")) {
            try RingListing.digest([("a", Fixtures.digest("x")), ("a", Fixtures.digest("y"))])
        }
    }

    @Test func timeRungTruncation() throws {
        let t = try #require(CaptureTime("2026-11-30T14:03:27.123Z"))
        #expect(t.rung == .exactMs)
        #expect(t.ladder.map(\.text) == ["2026", "2026-11", "2026-11-30", "2026-11-30T14", "2026-11-30T14:03", "2026-11-30T14:03:27", "2026-11-30T14:03:27.123Z"])
        #expect(t.truncated(to: .hour)?.text == "2026-11-30T14")
        #expect(CaptureTime("2026-11-30")!.truncated(to: .hour) == nil)
        #expect(CaptureTime("2026-11-30T14")!.contains(t))
        #expect(!t.contains(CaptureTime("2026-11-30T14")!))
        for bad in ["2026-11-30T14:03:27.123", "2026-11-30 14", "2026-00", "2026-11-30T24", "20261", "2026-11-30T14:03:27.12Z", ""] {
            #expect(CaptureTime(bad) == nil, "\(bad)")
        }
    }
}
