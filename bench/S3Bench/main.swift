// Driver of bench/s3.sh (not a product): times our S3 client on the same files and objects the
// boto3 peer is timed on, and reports this process's peak RSS (VmHWM from /proc/self/status).
//
//   S3Bench put PREFIX FILE...        put each file as a blob (ID hashed first, not timed)
//   S3Bench get PREFIX OUT ID...      get each blob (re-hashed) into the file OUT
//
// Endpoint, credentials and bucket from the environment (AWS_*, EXHIBIT_S3_BUCKET). Prints
// `key <object key>` per blob, then `seconds <s>`, `cpu-seconds <s>` (this process's user +
// system CPU during the timed transfers, all threads), `hash-seconds <s>`, `peak-rss-kb <n>`.
import CAS
import Crypto
import Foundation
import S3

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("S3Bench: \(message)\n".utf8))
    exit(1)
}

/// User + system CPU seconds of this process so far (all threads).
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let t = { (v: timeval) in Double(v.tv_sec) + Double(v.tv_usec) / 1e6 }
    return t(usage.ru_utime) + t(usage.ru_stime)
}

func peakRSSKilobytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// SHA-256 of a file, read in 1 MiB pieces.
func hashFile(_ path: String) -> ContentID {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { fail("cannot open \(path)") }
    defer { close(fd) }
    let h = MessageDigest(.sha256)
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { fail("cannot read \(path)") }
        if n == 0 { break }
        buffer.withUnsafeBytes { h.update(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
    }
    return ContentID(digest: h.finalize())!
}

let args = CommandLine.arguments
guard args.count >= 4, let bucket = ProcessInfo.processInfo.environment["EXHIBIT_S3_BUCKET"] else {
    fail("usage: S3Bench put PREFIX FILE... | S3Bench get PREFIX OUT ID...  (EXHIBIT_S3_BUCKET and AWS_* set)")
}
do {
    var options = S3BlobStore.Options()
    // S3_BENCH_CONCURRENCY: parts in flight (a measurement knob; the store's default otherwise).
    if let c = ProcessInfo.processInfo.environment["S3_BENCH_CONCURRENCY"].flatMap(Int.init) { options.uploadConcurrency = c }
    // S3_BENCH_PART_MIB: part size in MiB (also the multipart threshold; the store's otherwise).
    if let m = ProcessInfo.processInfo.environment["S3_BENCH_PART_MIB"].flatMap(Int.init) {
        options.partSize = m << 20
        options.multipartThreshold = m << 20
    }
    // S3_BENCH_THRESHOLD_MIB: the multipart threshold alone, in MiB (after S3_BENCH_PART_MIB).
    if let m = ProcessInfo.processInfo.environment["S3_BENCH_THRESHOLD_MIB"].flatMap(Int.init) { options.multipartThreshold = m << 20 }
    // S3_BENCH_GET_CONCURRENCY: ranged GETs in flight of our get (1: one GET per blob).
    if let c = ProcessInfo.processInfo.environment["S3_BENCH_GET_CONCURRENCY"].flatMap(Int.init) { options.downloadConcurrency = c }
    let store = try S3BlobStore(client: try S3Client.fromEnvironment(), bucket: bucket, prefix: args[2], options: options)
    switch args[1] {
    case "put":
        let files = Array(args[3...])
        let h0 = Date()
        let ids = files.map(hashFile)
        let hashSeconds = Date().timeIntervalSince(h0)
        let (t0, c0) = (Date(), cpuSeconds())
        for (file, id) in zip(files, ids) {
            guard let file = try? FileByteSource(path: file) else { fail("cannot open \(file)") }
            var source = ByteReader(file)
            _ = try store.put(id, size: file.count, from: &source)
        }
        let (seconds, cpu) = (Date().timeIntervalSince(t0), cpuSeconds() - c0)
        for id in ids { print("key \(store.key(for: id))") }
        print("seconds \(seconds)")
        print("cpu-seconds \(cpu)")
        print("hash-seconds \(hashSeconds)")
    case "get":
        guard args.count >= 5 else { fail("get needs OUT and IDs") }
        let out = args[3]
        let (t0, c0) = (Date(), cpuSeconds())
        for hex in args[4...] {
            guard let id = ContentID(hex: hex) else { fail("bad ID \(hex)") }
            let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { fail("cannot create \(out)") }
            try store.get(id) { bytes in
                var done = 0
                while done < bytes.count {
                    let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                    guard n > 0 else { fail("write \(out) failed") }
                    done += n
                }
            }
            close(fd)
        }
        print("seconds \(Date().timeIntervalSince(t0))")
        print("cpu-seconds \(cpuSeconds() - c0)")
    default:
        fail("unknown command \(args[1])")
    }
    print("peak-rss-kb \(peakRSSKilobytes())")
} catch {
    fail("\(error)")
}
