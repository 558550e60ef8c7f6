// PostgreSQL query benchmark helper (not part of the product CLI): fills the archive's record
// tables with the N synthetic records of bench/query.sh (BenchRecords), then times the SQL of
// RecordTable in-process with the same queries and labels as QueryBench, so bench/pg.sh can print
// both side by side.
//
//   pg-bench build [N]     migrate and fill to N records (COPY in batches of 20,000)
//   pg-bench measure       print p50/p95/max of each query (and its answer)
//   pg-bench explain       print the server's plan and timing of the main queries
//   pg-bench drop          drop the benchmark's schema and everything in it
//
// Connection: $EXHIBIT_PG_URL, else the PG* environment; tables in the schema $PG_BENCH_SCHEMA
// (default `bench`).
import ArchivePostgres
import BenchRecords
import Foundation
import Postgres
import Query

let env = ProcessInfo.processInfo.environment
let namespace = env["PG_BENCH_SCHEMA"] ?? "bench"

func connect() throws -> (Connection, ArchiveSchema) {
    let schema = try ArchiveSchema(namespace: namespace)
    var options = Connection.Options()
    options.applicationName = "pg-bench"
    options.settings = schema.sessionSettings
    return (try Connection(env["EXHIBIT_PG_URL"] ?? "", options: options), schema)
}

func say(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }

func build(_ n: Int) throws {
    let (c, schema) = try connect()
    try schema.migrate(c)
    var have = try c.read { try RecordTable.count(in: $0) }
    let t0 = now()
    // Into empty tables: drop the secondary indexes, load, make them again from their own
    // definitions (pg_indexes), which is how PostgreSQL is bulk-loaded.
    var saved: [String] = []
    if have == 0 && n > 0 {
        saved = try c.execute("""
            SELECT indexdef FROM pg_indexes WHERE schemaname = $1
              AND tablename IN ('records', 'record_sidecars', 'record_variants') AND indexname NOT LIKE '%_pkey'
            """, [.text(namespace)]).map { try $0.decode(0, as: String.self) }
        for def in saved {
            let name = def.split(separator: " ")[2]  // CREATE INDEX <name> ON …
            try c.execute("DROP INDEX \(SQL.quoteIdentifier(namespace)).\(name)")
        }
    }
    let batch = 20_000
    var reportsCopied = Set<[UInt8]>()
    while have < n {
        let rows = try (have..<min(n, have + batch)).map { try IndexRow(Synthetic.record($0)) }
        try c.write { tx in
            // Reports first, each once (content-addressed, migration 6): COPY has no ON CONFLICT.
            try tx.copy("COPY record_reports (report_id, report) FROM STDIN") { out in
                for r in rows where reportsCopied.insert(Array(r.body[33..<65])).inserted {
                    try out.append([.bytes(Array(r.body[33..<65])), .bytes(r.report)])
                }
            }
            try tx.copy("COPY records (record_id, body_format, body, kind, integrity, trust, key_fingerprint, capture_time, ingest_time) FROM STDIN") { out in
                for r in rows {
                    try out.append([.bytes(r.recordId), .int(2), .bytes(r.body), .text(r.kind), .text(r.integrity),
                                    r.trust.map(CopyRows.Field.text) ?? .null, r.keyFingerprint.map(CopyRows.Field.text) ?? .null,
                                    r.captureTime.map(CopyRows.Field.text) ?? .null, .text(r.ingestTime)])
                }
            }
            try tx.copy("COPY record_sidecars (record_id, sink, state) FROM STDIN") { out in
                for r in rows { for (sink, state) in r.sidecars.sorted(by: { $0.key < $1.key }) { try out.append([.bytes(r.recordId), .text(sink), .text(state)]) } }
            }
            try tx.copy("COPY record_variants (blob_id, record_id) FROM STDIN") { out in
                for r in rows { for v in r.variants { try out.append([.bytes(v), .bytes(r.recordId)]) } }
            }
        }
        have += rows.count
        say("\rbuild: \(have)/\(n) records, \(Int(now() - t0)) s")
    }
    say("\n")
    let loaded = now()
    for def in saved { try c.execute(def) }
    let indexed = now()
    // The visibility map that index-only scans rely on, and the planner's statistics.
    for t in ["records", "record_sidecars", "record_variants"] { try c.execute("VACUUM (ANALYZE) \(SQL.quoteIdentifier(namespace)).\(t)") }
    print(String(format: "build_seconds %.1f (copy %.1f, indexes %.1f, vacuum analyze %.1f)", now() - t0, loaded - t0, indexed - loaded, now() - indexed))
    print("records \(try c.read { try RecordTable.count(in: $0) })")
    for row in try c.execute("""
        SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname IN ('records', 'record_sidecars', 'record_variants') ORDER BY 1
        """, [.text(namespace)]) {
        print(String(format: "table_mb %@ %.0f", try row.decode(0, as: String.self) as NSString, Double(try row.decode(1, as: Int64.self)) / 1e6))
    }
}

func measure() throws {
    let (c, schema) = try connect()
    try schema.check(c)
    let fps = Synthetic.fingerprints
    func q(_ f: RecordFilter, limit: Int? = nil) throws -> QueryResult { try c.read { try RecordTable.query(f, limit: limit, in: $0) } }
    func n(_ f: RecordFilter) throws -> QueryCount { try c.read { try RecordTable.count(f, in: $0) } }
    func report(_ label: String, _ t: (p50: Double, p95: Double, max: Double, last: String)) {
        print(String(format: "%-44@ p50 %8.3f ms  p95 %8.3f ms  max %8.3f ms  (%@)", label as NSString, t.p50, t.p95, t.max, t.last as NSString))
    }
    print("records \(try c.read { try RecordTable.count(in: $0) })")
    _ = try n(RecordFilter(timePrefix: "2026"))  // warm the cache once, as QueryBench does
    report("fingerprint count (--key FP --count)", try timeIt(200) { i in "\(try n(RecordFilter(keyPrefix: fps[i % fps.count])).matches) records" })
    report("fingerprint 8-hex prefix count", try timeIt(200) { i in
        "\(try n(RecordFilter(keyPrefix: String(fps[i % fps.count].prefix(8)))).matches) records" })
    report("fingerprint lookup, list IDs (--key FP)", try timeIt(50) { i in "\(try q(RecordFilter(keyPrefix: fps[i % fps.count])).matches.count) ids" })
    report("fingerprint, first 100 IDs (--limit 100)", try timeIt(200) { i in
        "\(try q(RecordFilter(keyPrefix: fps[i % fps.count]), limit: 100).matches.count) ids" })
    report("fingerprint, first 100 records (IDs+bodies)", try timeIt(200) { i in
        try c.read { tx in
            let ids = try RecordTable.query(RecordFilter(keyPrefix: fps[i % fps.count]), limit: 100, in: tx).matches
            return "\(try RecordTable.records(ids, in: tx).count) records"
        } })
    report("8-hex prefix, first 100 records (IDs+bodies)", try timeIt(200) { i in
        try c.read { tx in
            let ids = try RecordTable.query(RecordFilter(keyPrefix: String(fps[i % fps.count].prefix(8))), limit: 100, in: tx).matches
            return "\(try RecordTable.records(ids, in: tx).count) records"
        } })
    report("fingerprint + hour (--key FP --time HOUR)", try timeIt(200) { i in
        let r = try q(RecordFilter(keyPrefix: fps[i % fps.count], timePrefix: "2026-06-15T1\(i % 10)"))
        return "\(r.matches.count)+\(r.indeterminate.count) ids" })
    report("--sidecar uncommitted --count", try timeIt(50) { _ in "\(try n(RecordFilter(sidecarState: .uncommitted)).matches) records" })
    report("--sidecar uncommitted --sink audio --count", try timeIt(50) { _ in
        "\(try n(RecordFilter(sidecarState: .uncommitted, sink: .audio)).matches) records" })
    for (label, p, runs) in [("--time 2026-06-15T14 --count (hour)", "2026-06-15T14", 50), ("--time 2026-06-15 --count (day)", "2026-06-15", 50),
                             ("--time 2026-06 --count (month)", "2026-06", 20), ("--time 2026 --count (year: every record)", "2026", 5)] {
        report(label, try timeIt(runs) { _ in let r = try n(RecordFilter(timePrefix: p)); return "\(r.matches)+\(r.indeterminate)" })
    }
    report("--sidecar uncommitted --state tampered --count", try timeIt(20) { _ in
        "\(try n(RecordFilter(integrity: .tampered, sidecarState: .uncommitted)).matches) records" })
    report("--state intact --kind video --count", try timeIt(5) { _ in "\(try n(RecordFilter(integrity: .intact, kind: .video)).matches) records" })
    let sample = Array(try q(RecordFilter(timePrefix: "2026-06-15")).matches.prefix(1000))
    report("get 1000 records by ID (decode bodies)", try timeIt(10) { _ in "\(try c.read { try RecordTable.records(sample, in: $0) }.count) records" })
}

func drop() throws {
    let (c, _) = try connect()
    try c.execute("DROP SCHEMA IF EXISTS \(SQL.quoteIdentifier(namespace)) CASCADE")
}

/// The server's plan and execution time of the main queries (EXPLAIN ANALYZE), for docs/postgres.md.
func explain() throws {
    let (c, _) = try connect()
    let fp = Synthetic.fingerprints[0]
    let statements: [(String, [SQLValue])] = [
        ("SELECT count(*) FROM records r WHERE r.key_fingerprint = $1", [.text(fp)]),
        ("SELECT record_id FROM records r WHERE r.key_fingerprint = $1 ORDER BY record_id LIMIT 100", [.text(fp)]),
        ("SELECT count(*) FROM records r WHERE EXISTS (SELECT 1 FROM record_sidecars s WHERE s.record_id = r.record_id AND s.state = $1)", [.text("uncommitted")]),
        ("SELECT count(*) FROM records r WHERE r.capture_time LIKE $1", [.text("2026-06-15%")]),
        ("SELECT count(*) FROM records r WHERE r.capture_time = ANY ($1::text[])", [.textArray(["2", "20", "202", "2026", "2026-", "2026-0", "2026-06", "2026-06-", "2026-06-1"])]),
    ]
    for (sql, params) in statements {
        print("== \(sql)")
        for row in try c.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params) { print("   " + (try row.decode(0, as: String.self))) }
    }
}

let args = CommandLine.arguments
do {
    switch args.count > 1 ? args[1] : "" {
    case "build": try build(args.count > 2 ? Int(args[2]) ?? 1_000_000 : 1_000_000)
    case "measure": try measure()
    case "explain": try explain()
    case "drop": try drop()
    default:
        say("usage: pg-bench build [N] | measure | explain | drop\n")
        exit(2)
    }
} catch {
    say("pg-bench: \(error)\n")
    exit(1)
}
