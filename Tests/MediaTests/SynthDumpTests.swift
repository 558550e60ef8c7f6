import CaptureFormat
import Foundation
import Ground
@testable import Media
import Synthesis
import TestLiterals
import Testing

/// capture-synth dumps (signed 1080p H.264 + AAC videos with a simulated interleaving, stills
/// with a second view at a known disparity) read back by this module.
@Suite(.serialized) struct SynthDumpTests {
    static let dump: Result<(String, ExpectedDump), Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("media-synth-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        let options = SynthOptions(stills: 3, videos: 2, seed: 5, videoSeconds: 3, concurrency: 2)
        return (dir, try DumpSynthesizer(options: options).write(to: dir))
    }

    static func record(_ s: ExpectedDump.StreamedChunks) throws -> StreamedChunksRecord {
        StreamedChunksRecord(chunkSize: s.chunkSize, root: try #require(ContentID(hex: s.root)),
                             videoChunks: s.videoChunks, audioChunks: s.audioChunks)
    }

    @Test func synthVideosAreRecomputed() throws {
        let (dir, expected) = try Self.dump.get()
        let videos = expected.captures.filter { $0.kind == "video" && $0.faults.isEmpty }
        #expect(videos.count == 2)
        for v in videos {
            let s = try #require(v.streamedChunks)
            let r = StreamedChunkRecomputer().recompute(path: dir + "/" + v.deliveryFile, expected: try Self.record(s))
            #expect(r.state == .recomputed, "\(v.id): \(r)")
            #expect(r.videoChunks == .init(computed: s.videoChunks, recorded: s.videoChunks))
            #expect(r.audioChunks == .init(computed: s.audioChunks, recorded: s.audioChunks))
        }
    }

    /// The recorded order with the first audio leaf moved to the front: a commitment no nearby
    /// order reproduces.
    @Test func perturbedSynthOrderIsNotRecomputable() throws {
        let (dir, expected) = try Self.dump.get()
        let v = try #require(expected.captures.first { $0.kind == "video" && $0.faults.isEmpty })
        let s = try #require(v.streamedChunks)
        let path = dir + "/" + v.deliveryFile
        let es = try ElementaryStreams.chunks(path: path)
        var labels = s.order.compactMap(StreamedChunks.Track.init(rawValue:))
        let a = try #require(labels.firstIndex(of: .audio))
        labels.remove(at: a)
        labels.insert(.audio, at: 0)  // synth's audio tail completes last: placed first instead
        #expect(a >= 3)
        #expect(labels.count == s.order.count)
        let root = try StreamedChunks.root(video: try #require(es.video).digests, audio: try #require(es.audio).digests, order: labels)
        let perturbed = StreamedChunksRecord(chunkSize: s.chunkSize, root: root, videoChunks: s.videoChunks, audioChunks: s.audioChunks)
        let r = StreamedChunkRecomputer().compare(es, expected: perturbed)
        #expect(r.state == .notRecomputable)
        #expect(r.ordersTried > 1)
    }

    @Test func synthVideoFactsBesideTheAudioMaster() throws {
        let (dir, expected) = try Self.dump.get()
        let v = try #require(expected.captures.first { $0.kind == "video" && $0.faults.isEmpty })
        let f = try MediaFacts.read(path: dir + "/" + v.deliveryFile)
        let video = try #require(f.streams.first { $0.type == "video" })
        #expect(video.codec == "h264" && video.width == 1920 && video.height == 1080)
        #expect(f.streams.contains { $0.codec == "aac" })
        #expect(f.streamInfoProbed == false)
        let caf = try #require(v.files.first { $0.hasSuffix("audio.caf") })
        let audio = try MediaFacts.read(path: dir + "/" + caf)
        #expect(audio.streams.first?.sampleRate == 16000 && audio.streams.first?.channels == 1)
        #expect((audio.durationSeconds ?? 0) > 2)
        let t = try Thumbnail.make(path: dir + "/" + v.deliveryFile)
        #expect(t.width == 320 && t.height == 180 && t.sourceWidth == 1920)
    }

    /// synth's second view shows a scene point at x − disparityPx: our disparity (second x −
    /// primary x) is −disparityAt96, within the ±1 px floor.
    @Test func synthStillsParallax() throws {
        let (dir, expected) = try Self.dump.get()
        let stills = expected.captures.filter { $0.kind == "still" && $0.faults.isEmpty && $0.secondView != nil }
        #expect(!stills.isEmpty)
        for c in stills {
            let sv = try #require(c.secondView)
            let second = try #require(c.files.first { $0.hasSuffix("second-view.jpg") })
            let m = Parallax.measure(primaryPath: dir + "/" + c.deliveryFile, secondPath: dir + "/" + second)
            #expect(m.state == .measured, "\(c.id): \(m.reason?.rawValue ?? "") \(m.detail ?? "")")
            #expect(abs((m.medianDisparityPx ?? 99) + sv.disparityAt96) <= 1, "\(c.id): \(m.medianDisparityPx ?? 99) vs \(sv.disparityAt96)")
            let t = try Thumbnail.make(path: dir + "/" + c.deliveryFile)
            #expect(t.width == 320)
        }
    }
}
