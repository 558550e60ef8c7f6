import Foundation
import ProcessSupport
import Testing

extension BlobStoreContract {
    /// RSS a probe may use above its base and its store's declared buffers: the runtime's and
    /// the threads' own (stacks, malloc arenas), libcurl's 512 KiB send and receive buffers per
    /// connection (up to one per part in flight), LMDB's page lists, OpenSSL's contexts.
    /// Measured: see docs/archive.md.
    public static let memorySlack = 32 << 20

    /// The streaming-memory bound: one put and one verified get of a `size`-byte file (default
    /// 256 MiB) by `BlobStoreProbe KIND LOCATION FILE` in a process of its own. Its peak RSS
    /// during each (`VmHWM`, reset between them) may exceed its RSS before the put by at most
    /// the store's declared buffers plus `memorySlack` (the get's, above its RSS before the get:
    /// a store may keep its part buffers for the next put; a store that declares its get's
    /// buffers apart, `get-budget-kb`, is held to those). The same probe with `--slurp` (the
    /// whole file read into memory first: what a store that slurped its source would do) must
    /// exceed that bound, so the check can fail. `location` gives a fresh archive directory
    /// or key prefix each time it is called.
    /// `probeFlags` go to the probe after FILE (S3's `--single`: one streamed PUT).
    public static func streamingMemory(kind: String, location: () -> String, environment: [String: String]? = nil,
                                       size: Int = 256 << 20, probeFlags: [String] = []) throws {
        let binary = try #require(Run.builtExecutable("BlobStoreProbe"), "build the BlobStoreProbe helper first (swift build)")
        let dir = ScratchDirectory("blob-memory")
        let input = dir.file("in")
        try writePattern(input, count: size, seed: 256)

        let streamed = try runProbe(binary, [kind, location(), input] + probeFlags, environment: environment)
        let bound = streamed["budget-kb"]! + memorySlack / 1024
        let getBound = (streamed["get-budget-kb"] ?? streamed["budget-kb"]!) + memorySlack / 1024
        #expect(max(bound, getBound) * 1024 < size / 2, "a bound of \(max(bound, getBound)) kB would not tell streaming from slurping \(size) bytes")
        #expect(streamed["size"] == size)
        let putGrowth = streamed["put-hwm-kb"]! - streamed["base-rss-kb"]!
        let getGrowth = streamed["get-hwm-kb"]! - streamed["get-base-rss-kb"]!
        #expect(putGrowth <= bound, "\(kind) put of \(size) B grew RSS by \(putGrowth) kB; bound \(bound) kB")
        #expect(getGrowth <= getBound, "\(kind) get of \(size) B grew RSS by \(getGrowth) kB; bound \(getBound) kB")

        let slurped = try runProbe(binary, [kind, location(), input] + probeFlags + ["--slurp"], environment: environment)
        let slurpGrowth = slurped["put-hwm-kb"]! - slurped["base-rss-kb"]!
        #expect(slurpGrowth > bound, "the slurping control grew RSS by only \(slurpGrowth) kB; bound \(bound) kB")
    }

    /// Runs the probe; its `key value` lines as integers (the `id` line is skipped).
    static func runProbe(_ binary: String, _ args: [String], environment: [String: String]?) throws -> [String: Int] {
        let run = Run.capture([binary] + args, environment: environment)
        try #require(run.status == 0, "BlobStoreProbe \(args.joined(separator: " ")): \(run.stderr)")
        var fields: [String: Int] = [:]
        for line in run.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Int(parts[1]) { fields[String(parts[0])] = n }
        }
        for key in ["size", "budget-kb", "base-rss-kb", "put-hwm-kb", "get-base-rss-kb", "get-hwm-kb"] {
            try #require(fields[key] != nil, "BlobStoreProbe printed no \(key): \(run.stdout)")
        }
        return fields
    }
}
