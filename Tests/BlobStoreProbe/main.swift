// Test helper of the blob-store contract (not a product): one streamed put and one verified get
// of a large file in a process of its own, so the contract can bound that process's peak RSS
// (the test process runs suites in parallel, so its own RSS bounds nothing).
//
//   BlobStoreProbe lmdb DIR FILE [--slurp]               a fresh LMDB archive at DIR
//   BlobStoreProbe s3 PREFIX FILE [--single] [--slurp]   S3 under PREFIX (AWS_*, EXHIBIT_S3_BUCKET);
//                                                        --single: the threshold at S3's 5 GiB limit,
//                                                        so the put is one streamed PUT
//
// Hashes FILE (the ID, as the archive knows it from staging), then records the RSS (`VmRSS`)
// as the base and resets the peak (`5` to /proc/self/clear_refs), puts FILE as a blob from a
// `FileByteSource` (with --slurp, the control: the whole file is first read into memory and
// put from there, which the bound must catch), reads the peak (`VmHWM`), resets it, gets the
// blob back into a sink that only re-hashes it, reads the peak again, and deletes the blob.
// Prints `key value` lines: id, size, base-rss-kb, put-hwm-kb, get-base-rss-kb (the RSS before
// the get: a store may keep its part buffers for the next put), get-hwm-kb, budget-kb (the
// store's own declared buffers for the put: S3 (parts in flight + 1) × part size, or with
// --single the MD5 pass's one piece; LMDB two batch buffers plus one batch of dirty pages), and
// for S3 get-budget-kb (the get's: (ranged GETs in flight + 1) × part size, from the same pool). Exit 1 with the error on stderr on any failure.
import Archive
import ArchiveLMDB
import CAS
import Crypto
import Foundation
import Ground
import S3

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BlobStoreProbe: \(message)\n".utf8))
    exit(1)
}

func say(_ key: String, _ value: CustomStringConvertible) {
    FileHandle.standardOutput.write(Data("\(key) \(value)\n".utf8))
}

/// A `kB` field of /proc/self/status (`VmRSS`, `VmHWM`).
func statusKilobytes(_ field: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        if let n = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return n }
    }
    fail("no \(field) in /proc/self/status")
}

/// Resets VmHWM to the current RSS (Linux ≥ 4.0).
func resetPeak() {
    let fd = open("/proc/self/clear_refs", O_WRONLY)
    guard fd >= 0, write(fd, "5", 1) == 1 else { fail("cannot reset the peak RSS through /proc/self/clear_refs") }
    close(fd)
}

let args = CommandLine.arguments
let flags = Set(args.dropFirst(4))
guard args.count >= 4, flags.isSubset(of: ["--slurp", "--single"]), flags.count == args.count - 4,
      args[1] == "s3" || !flags.contains("--single") else {
    fail("usage: BlobStoreProbe lmdb DIR FILE [--slurp] | s3 PREFIX FILE [--single] [--slurp]")
}
let slurp = flags.contains("--slurp")
do {
    let store: any BlobStore
    let budget: Int
    var getBudget: Int?
    switch args[1] {
    case "lmdb":
        let content = try ContentStore.create(at: args[2])
        store = LMDBBlobStore(content)
        budget = 3 * content.options.batchBytes
    case "s3":
        guard let bucket = ProcessInfo.processInfo.environment["EXHIBIT_S3_BUCKET"] else { fail("EXHIBIT_S3_BUCKET is not set") }
        var options = S3BlobStore.Options()
        if flags.contains("--single") { options.multipartThreshold = S3BlobStore.Options.maxSinglePut }
        let s3 = try S3BlobStore(client: try S3Client.fromEnvironment(), bucket: bucket, prefix: args[2], options: options)
        store = s3
        budget = flags.contains("--single") ? S3BlobStore.md5Piece : (s3.options.uploadConcurrency + 1) * s3.options.partSize
        getBudget = (s3.options.downloadConcurrency + 1) * s3.options.partSize
    default:
        fail("unknown store \(args[1])")
    }
    let file = try FileByteSource(path: args[3])
    let hasher = MessageDigest(.sha256)
    try file.forEachChunkInPlace(in: 0..<file.count) { hasher.update($0) }
    let id = ContentID(digest: hasher.finalize())!
    say("id", id.hex)
    say("size", file.count)
    say("budget-kb", budget / 1024)
    if let getBudget { say("get-budget-kb", getBudget / 1024) }

    say("base-rss-kb", statusKilobytes("VmRSS"))
    resetPeak()
    var reader: ByteReader
    if slurp {
        reader = ByteReader(MemoryByteSource(try file.readExactly(at: 0, count: Int(file.count))))
    } else {
        reader = ByteReader(file)
    }
    guard try store.put(id, size: file.count, from: &reader) == .new else { fail("the blob was there already") }
    say("put-hwm-kb", statusKilobytes("VmHWM"))
    reader = ByteReader(MemoryByteSource([]))   // the control's bytes go before the get

    say("get-base-rss-kb", statusKilobytes("VmRSS"))
    resetPeak()
    let check = MessageDigest(.sha256)
    let count = try store.get(id) { check.update($0) }
    say("get-hwm-kb", statusKilobytes("VmHWM"))
    guard count == file.count, ContentID(digest: check.finalize()) == id else { fail("the get did not return the blob") }
    guard try store.delete(id) else { fail("the blob was gone before its delete") }
} catch {
    fail("\(error)")
}
