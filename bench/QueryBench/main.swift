// Query benchmark helper (not part of the product CLI): builds an archive holding N synthetic
// IndexedRecords through RecordIndex.put, then times the Query API in-process.
//
//   query-bench build ARCHIVE [N]     create ARCHIVE (if needed) and fill it to N records
//   query-bench measure ARCHIVE       print in-process timings, and the CLI arguments to time
//   query-bench list ARCHIVE KEY      list KEY's records as `query --key` does; print where RSS is
//
// Records are deterministic (seeded), so the same N gives the same archive.
import ArchiveLMDB
import BenchRecords
import CAS
import Foundation
import LMDB
import Query

func build(_ path: String, _ n: Int) throws {
    var options = ContentStore.Options()
    options.environment.mapSize = 4 << 30
    options.environment.noSync = true   // bulk load; synced once at the end
    let store = try ContentStore.create(at: path, options: options)
    let index = try RecordIndex(environment: store.environment)
    var have = try index.count
    let t0 = now()
    let batch = 20_000
    while have < n {
        let range = have..<min(n, have + batch)
        let records = range.map(Synthetic.record)
        try store.environment.write { txn in for r in records { try index.put(r, in: txn) } }
        have = range.upperBound
        FileHandle.standardError.write(Data("\rbuild: \(have)/\(n) records, \(Int(now() - t0)) s".utf8))
    }
    try store.environment.sync()
    FileHandle.standardError.write(Data("\n".utf8))
    print(String(format: "build_seconds %.1f", now() - t0))
    print("records \(try index.count)")
    let info = store.environment.info()
    print(String(format: "map_used_mb %.0f", Double(info.usedBytes) / 1e6))
}

func measure(_ path: String) throws {
    let store = try ContentStore.open(at: path)
    let index = try RecordIndex(environment: store.environment)
    print("records \(try index.count)")
    let fps = Synthetic.fingerprints
    func report(_ label: String, _ t: (p50: Double, p95: Double, max: Double, last: String)) {
        print(String(format: "%-44@ p50 %8.3f ms  p95 %8.3f ms  max %8.3f ms  (%@)", label as NSString, t.p50, t.p95, t.max, t.last as NSString))
    }
    // Warm the page cache once (what a CLI run after another finds), then time.
    _ = try index.count(RecordFilter(timePrefix: "2026"))
    report("fingerprint count (--key FP --count)", try timeIt(200) { i in
        let c = try index.count(RecordFilter(keyPrefix: fps[i % fps.count])); return "\(c.matches) records" })
    report("fingerprint 8-hex prefix count", try timeIt(200) { i in
        let c = try index.count(RecordFilter(keyPrefix: String(fps[i % fps.count].prefix(8)))); return "\(c.matches) records" })
    report("fingerprint lookup, list IDs (--key FP)", try timeIt(50) { i in
        let q = try index.query(RecordFilter(keyPrefix: fps[i % fps.count])); return "\(q.matches.count) ids" })
    report("fingerprint, first 100 IDs (--limit 100)", try timeIt(200) { i in
        let q = try index.query(RecordFilter(keyPrefix: fps[i % fps.count]), limit: 100); return "\(q.matches.count) ids" })
    report("fingerprint, first 100 records (IDs+bodies)", try timeIt(200) { i in
        let q = try index.query(RecordFilter(keyPrefix: fps[i % fps.count]), limit: 100)
        return "\(try index.records(q.matches).count) records" })
    report("8-hex prefix, first 100 records (IDs+bodies)", try timeIt(200) { i in
        let q = try index.query(RecordFilter(keyPrefix: String(fps[i % fps.count].prefix(8))), limit: 100)
        return "\(try index.records(q.matches).count) records" })
    report("fingerprint + hour (--key FP --time HOUR)", try timeIt(200) { i in
        let q = try index.query(RecordFilter(keyPrefix: fps[i % fps.count], timePrefix: "2026-06-15T1\(i % 10)"))
        return "\(q.matches.count)+\(q.indeterminate.count) ids" })
    report("--sidecar uncommitted --count", try timeIt(50) { _ in
        let c = try index.count(RecordFilter(sidecarState: .uncommitted)); return "\(c.matches) records" })
    report("--sidecar uncommitted --sink audio --count", try timeIt(50) { _ in
        let c = try index.count(RecordFilter(sidecarState: .uncommitted, sink: .audio)); return "\(c.matches) records" })
    report("--time 2026-06-15T14 --count (hour)", try timeIt(50) { _ in
        let c = try index.count(RecordFilter(timePrefix: "2026-06-15T14")); return "\(c.matches)+\(c.indeterminate)" })
    report("--time 2026-06-15 --count (day)", try timeIt(50) { _ in
        let c = try index.count(RecordFilter(timePrefix: "2026-06-15")); return "\(c.matches)+\(c.indeterminate)" })
    report("--time 2026-06 --count (month)", try timeIt(20) { _ in
        let c = try index.count(RecordFilter(timePrefix: "2026-06")); return "\(c.matches)+\(c.indeterminate)" })
    report("--time 2026 --count (year: every record)", try timeIt(5) { _ in
        let c = try index.count(RecordFilter(timePrefix: "2026")); return "\(c.matches)+\(c.indeterminate)" })
    report("--sidecar uncommitted --state tampered --count", try timeIt(20) { _ in
        let c = try index.count(RecordFilter(integrity: .tampered, sidecarState: .uncommitted)); return "\(c.matches) records" })
    report("--state intact --kind video --count", try timeIt(5) { _ in
        let c = try index.count(RecordFilter(integrity: .intact, kind: .video)); return "\(c.matches) records" })
    let sample = try index.query(RecordFilter(timePrefix: "2026-06-15")).matches.prefix(1000)
    report("get 1000 records by ID (decode bodies)", try timeIt(10) { _ in
        "\(try index.records(Array(sample)).count) records" })
    print("cli_fingerprint \(fps[0])")
}

/// What `query --key KEY --format csv` does (every matching record's body decoded, in batches
/// of 1,024), then where its resident memory is (run under `/usr/bin/time -v` for the peak).
func list(_ path: String, key: String) throws {
    let store = try ContentStore.open(at: path)
    let index = try RecordIndex(environment: store.environment)
    let t = now()
    let ids = try index.query(RecordFilter(keyPrefix: key)).matches
    var bytes = 0
    for start in stride(from: 0, to: ids.count, by: 1024) {
        for r in try index.records(Array(ids[start..<min(ids.count, start + 1024)])) { bytes += r.reportJSON.count + r.recordId.hex.utf8.count }
    }
    print(String(format: "listed %d records (%d report bytes) in %.1f ms", ids.count, bytes, (now() - t) * 1000))
    // Where the resident memory is: the map's file pages (RssFile) or the heap (RssAnon).
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
        print(status.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("VmRSS") || $0.hasPrefix("RssAnon") || $0.hasPrefix("RssFile") }
                .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }.joined(separator: ", "))
    }
}

let args = CommandLine.arguments
do {
    switch (args.count > 1 ? args[1] : "", args.count > 2 ? args[2] : nil) {
    case ("build", let path?): try build(path, args.count > 3 ? Int(args[3]) ?? 1_000_000 : 1_000_000)
    case ("measure", let path?): try measure(path)
    case ("list", let path?) where args.count > 3: try list(path, key: args[3])
    default:
        FileHandle.standardError.write(Data("usage: query-bench build ARCHIVE [N] | measure ARCHIVE | list ARCHIVE KEY\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("query-bench: \(error)\n".utf8))
    exit(1)
}
