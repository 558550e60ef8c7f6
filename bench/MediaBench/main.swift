// Driver for bench/media.sh: times the streaming streamed-chunk recomputation of a file and
// prints facts as JSON. Not a product; the numbers go into docs/media.md.
//
//     MediaBench chunks FILE     per-track chunk hashes via ElementaryStreams, with MB/s
//     MediaBench facts FILE      MediaFacts as JSON
import CaptureFormat
import Foundation
import Media

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let args = CommandLine.arguments
guard args.count == 3 else { fail("usage: MediaBench chunks|facts FILE | tree N") }
let path = args[2]
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]

func run() {
    switch args[1] {
    case "facts":
        do {
            let f = try MediaFacts.read(path: path)
            print(String(decoding: try encoder.encode(f), as: UTF8.self))
        } catch {
            fail("\(error)")
        }
    case "chunks":
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let r = try ElementaryStreams.chunks(path: path)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let mbps = Double(size) / 1e6 / seconds
            print("file_bytes=\(size) seconds=\(String(format: "%.3f", seconds)) mb_per_s=\(String(format: "%.1f", mbps))"
                  + " video_chunks=\(r.video?.digests.count ?? 0) audio_chunks=\(r.audio?.digests.count ?? 0)"
                  + " es_bytes=\((r.video?.byteCount ?? 0) + (r.audio?.byteCount ?? 0)) findings=\(r.findings.map(\.code)) announced=\(String(describing: r.video?.announcedByteCount))/\(String(describing: r.audio?.announcedByteCount)) read=\(r.video?.byteCount ?? 0)/\(r.audio?.byteCount ?? 0) samples=\(r.video?.sampleCount ?? 0)/\(r.audio?.sampleCount ?? 0)")
        } catch {
            fail("\(error)")
        }
    case "tree":
        // Cost of one candidate order's root at N leaves (the search's unit of work).
        let n = Int(path) ?? 760
        let leaves = (0..<n).map { StreamedChunks.chunkHash(track: .video, index: UInt64($0), bytes: []) }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<50 { _ = MerkleTree(leaves: leaves).root }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / 50
        print("leaves=\(n) ms_per_root=\(String(format: "%.3f", ms))")
    default:
        fail("usage: MediaBench chunks|facts FILE | tree N")
    }
}

run()
