import Archive
import Foundation
import Ground
import Ingest
import Query

/// `query [filters] [--format table|json|csv] [--count | --limit N]`: records selected by index scans.
struct QueryCommand: Command {
    static let name = "query"
    static let abstract = "List or count records by key, capture time, state, sidecar, kind, trust."
    static let discussion = """
    Filters combine with AND; each is a scan of its own index. A filter repeated, or given a
    comma list (--sidecar uncommitted,mismatch), means OR within that filter: the records
    matching any of its values (and all the other filters). --time PREFIX matches records
    whose capture time is known at that precision or finer and starts with PREFIX; records
    known only at a coarser rung that contains it (say only the day) are listed apart as
    indeterminate, never included or dropped. --sidecar STATE selects records with some sink
    in STATE (with --sink, that sink); --sink alone selects records that have the sink.
    table: matches, then an 'Indeterminate' section; csv: a header row, one row per record,
    column 'indeterminate'; json: one object per line with "indeterminate". --count prints
    'matches N' and 'indeterminate N' (json: one object; csv: header and one row).
    --limit N lists only the first N matches and N indeterminate records (lowest record IDs);
    with exact filters only (a full fingerprint or a prefix naming one, sidecar, sink, state,
    kind, trust) the scan stops there.
    """
    static let formatValues = ["table", "json", "csv"]
    /// The allowed values of the filter options: the vocabularies' words, in their order.
    static let integrityValues = Integrity.allCases.map(\.rawValue)
    static let sidecarValues = SidecarState.allCases.map(\.rawValue)
    static let sinkValues = SidecarSink.allCases.map(\.rawValue)
    static let kindValues = MediaKind.allCases.map(\.rawValue)
    static let trustValues = Trust.allCases.map(\.rawValue)
    static let analysesValues = AnalysisState.allCases.map(\.rawValue)
    /// The filter options, shared with any command that selects records the way `query` does
    /// (parse them with `parseFilter(_:command:)`).
    static let filterOptions = [
        OptionSpec("key", value: "fp-or-prefix", help: "Signing-key fingerprint or a hex prefix of one."),
        OptionSpec("time", value: "prefix", help: "Capture-time prefix, e.g. 2026-11-30T14."),
        OptionSpec("state", value: "state", help: "Integrity: intact, tampered, unsigned or malformed.",
                   completion: .choices(integrityValues)),
        OptionSpec("sidecar", value: "state", help: "Sidecar state: verified, mismatch, missing, uncommitted, failed, never-recorded.",
                   completion: .choices(sidecarValues)),
        OptionSpec("sink", value: "sink", help: "Sink: audio, sensors, ring, depth or second-view.", completion: .choices(sinkValues)),
        OptionSpec("kind", value: "kind", help: "still, video, audio, document or unknown.", completion: .choices(kindValues)),
        OptionSpec("trust", value: "trust", help: "trusted or untrusted.", completion: .choices(trustValues)),
        OptionSpec("analyses", value: "state", help: "Media analyses: pending (ingest --defer-media) or done.",
                   completion: .choices(analysesValues)),
    ]
    static let options = filterOptions + [
        OptionSpec("format", value: "format", help: "table (default), json or csv (--json = --format json).",
                   completion: .choices(formatValues)),
        OptionSpec("count", help: "Print the numbers of matching and indeterminate records only."),
        OptionSpec("limit", value: "n", help: "List at most the first N matches and N indeterminate records."),
    ]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let selection = try RecordSelection(args, command: name)
        let format = try parseFormat(args, json: context.json)
        let limit = try parseLimit(args)
        if limit != nil && args.flag("count") { throw UsageError("--limit lists records; it does not apply to --count", command: name) }
        let index = try openIndex(context)
        let c = context.console
        if args.flag("count") {
            let n = try queryErrors { try selection.count(index) }
            switch format {
            case "json": c.json(.object([("matches", .int(Int64(n.matches))), ("indeterminate", .int(Int64(n.indeterminate)))]))
            case "csv": c.out("matches,indeterminate"); c.out("\(n.matches),\(n.indeterminate)")
            default: c.out("matches \(n.matches)"); c.out("indeterminate \(n.indeterminate)")
            }
            return .success
        }
        let result = try queryErrors { try selection.query(index, limit: limit) }
        // Bodies are read in batches, so memory stays bounded however many records match. A
        // record whose stored bytes no longer match is refused (named on stderr, exit 1); the
        // others are still listed.
        var refused = 0
        func rows(_ ids: [ContentID], indeterminate: Bool, _ emit: (RecordRow) throws -> Void) throws {
            var start = 0
            while start < ids.count {
                let batch = Array(ids[start..<min(ids.count, start + 1024)])
                let records = try queryErrors {
                    try index.records(batch) { _, error in
                        refused += 1
                        c.err("query: refused: \(error)")
                    }
                }
                for r in records { try emit(RecordRow(r, indeterminate: indeterminate)) }
                start += batch.count
            }
        }
        switch format {
        case "json":
            for (ids, ind) in [(result.matches, false), (result.indeterminate, true)] {
                try rows(ids, indeterminate: ind) { c.jsonLine(try $0.jsonLine()) }
            }
        case "csv":
            c.out(CSV.line(RecordRow.csvHeader))
            for (ids, ind) in [(result.matches, false), (result.indeterminate, true)] {
                try rows(ids, indeterminate: ind) { c.writeOut(Array((CSV.line($0.csvFields) + "\n").utf8)) }
            }
        default:
            c.out(Table.line(Table.header))
            try rows(result.matches, indeterminate: false) { c.out(Table.line(Table.cells($0))) }
            if selection.hasTime {
                c.out("")
                c.out("Indeterminate (capture time known only more coarsely than --time):")
                if result.indeterminate.isEmpty { c.out("(none)") } else {
                    c.out(Table.line(Table.header))
                    try rows(result.indeterminate, indeterminate: true) { c.out(Table.line(Table.cells($0))) }
                }
            }
            c.out("")
            if let limit, result.matches.count == limit || result.indeterminate.count == limit {
                c.out("first \(result.matches.count) matching, \(result.indeterminate.count) indeterminate (--limit \(limit); --count for the totals)")
            } else {
                c.out("\(result.matches.count) matching, \(result.indeterminate.count) indeterminate")
            }
        }
        return refused == 0 ? .success : .failure
    }

    /// `--limit N` (N ≥ 1), or nil.
    static func parseLimit(_ args: ParsedArguments) throws -> Int? {
        guard let v = args.value("limit") else { return nil }
        guard let n = Int(v), n >= 1 else { throw UsageError("--limit must be a whole number ≥ 1, not '\(v)'", command: name) }
        return n
    }

    static func parseFormat(_ args: ParsedArguments, json: Bool) throws -> String {
        guard let f = args.value("format") else { return json ? "json" : "table" }
        guard formatValues.contains(f) else {
            throw UsageError("--format must be one of \(formatValues.joined(separator: ", ")), not '\(f)'", command: name)
        }
        if json && f != "json" { throw UsageError("--json conflicts with --format \(f)", command: name) }
        return f
    }

    /// The archive's records (the CAS store opened first: it checks the archive).
    static func openIndex(_ context: CommandContext) throws -> any RecordStore<IndexedRecord> {
        try queryErrors { try context.openArchive(access: .readIfNotWritable, blobs: false).records }
    }

    /// Runs `body`, reporting index storage failures as the archive's (exit 3).
    static func queryErrors<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as QueryError {
            if let failure = e.storageFailure { throw failure }
            if case .unsupportedFormat(let f) = e { throw UnsupportedArchiveFormat(format: f) }
            throw e
        }
    }

    /// The text table: fixed column widths (the longest value each column can hold), so rows
    /// stream out without a first pass.
    enum Table {
        static let header = ["RECORD", "KIND", "INTEGRITY", "TRUST", "KEY", "CAPTURE TIME", "SIDECARS"]
        static let widths = [64, 7, 9, 9, 16, 24]

        static func cells(_ r: RecordRow) -> [String] {
            [r.recordId.hex, r.kind.rawValue, r.integrity.rawValue, r.trust?.rawValue ?? "-", r.keyFingerprint.map { String($0.hex.prefix(16)) } ?? "-",
             r.captureTime ?? "-", r.sidecarSummary.isEmpty ? "-" : r.sidecarSummary]
        }

        static func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, s in
                i < widths.count && s.count < widths[i] ? s.padding(toLength: widths[i], withPad: " ", startingAt: 0) : s
            }.joined(separator: "  ")
        }
    }
}
