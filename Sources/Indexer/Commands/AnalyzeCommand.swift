import Analysis
import Custody
import Foundation
import Ground
import Ingest
import Query
import Verify

/// `analyze [--query FILTERS] [--jobs N]`: the media analyses of stored records, from the
/// stored blobs (issue 13): what `ingest --defer-media` left pending.
struct AnalyzeCommand: Command {
    static let name = "analyze"
    static let abstract = "Make the media analyses of stored records from their stored blobs (after ingest --defer-media)."
    static let discussion = """
    For every record whose media analyses are pending (ingest --defer-media), or were made by
    another version of this tool, reads the record's stored blobs (never the dump) and adds
    what a default ingest adds: media facts of the delivery file, audio master and ring
    frames, the streamed-chunk recomputation of a video, the parallax of a still with a second
    view, and the thumbnail (a derived blob). Per record, in one transaction: the analysed
    report, the thumbnail entry, analyses = done with the tool and library versions, the index
    entries, and a 'metadata extraction' custody event. Resumable and idempotent: a record
    already analysed by this version is skipped, so a killed run is simply run again.
    --query with the query command's filters restricts the records (e.g. --query --kind
    still). One line per record: <analysed|skipped|failed> <record-id> [media N]
    [thumbnail WxH] [error], then a summary. Exit 1 if any record could not be analysed; 3
    if the archive cannot be written.
    """
    static let options = [
        OptionSpec("query", help: "Select records with the filters below (default: every record needing analysis)."),
    ] + QueryCommand.options.filter { ExportCommand.filterOptions.contains($0.long) } + [
        OptionSpec("jobs", short: "j", value: "n", help: "Analysis workers (default: the core count)."),
        OptionSpec("operator", value: "name", help: "Operator named in custody events (default: $USER)."),
        OptionSpec("organization", value: "name", help: "Organization named in custody events (default: $EXHIBIT_ORGANIZATION; none: not stated)."),
    ]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let usesQuery = args.flag("query")
        if !usesQuery && ExportCommand.filterOptions.contains(where: { args.value($0) != nil }) {
            throw UsageError("filters need --query", command: name)
        }
        let selection = usesQuery ? try RecordSelection(args, command: name) : nil
        var options = Analyzer.Options()
        if let j = args.value("jobs") {
            guard let n = Int(j), (1...256).contains(n) else { throw UsageError("--jobs must be 1…256, not '\(j)'", command: name) }
            options.jobs = n
        }
        options.agent = CustodyAgent.current(operator: args.value("operator"), organization: args.value("organization"), environment: context.environment)
        let archive = try context.openArchive()
        let analyzer = Analyzer(records: archive.records, blobs: archive.blobs, custody: archive.custodyStore,
                                verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none), options: options)
        let ids = try QueryCommand.queryErrors { try analyzer.select(selection?.filters ?? [RecordFilter()]) }
        let c = context.console
        let bar = ProgressBar(console: c, items: ids.count, bytes: 0)
        let summary: AnalysisSummary
        do {
            summary = try analyzer.run(ids) { r in
                bar.advance(items: 1, bytes: 0)
                if context.json { c.json(json(r)) } else { c.out(text(r)) }
            }
        } catch {
            bar.finish()
            if let failure = storageFailure(in: error) { throw failure }
            throw error
        }
        bar.finish()
        let count: (AnalysisResult.Outcome) -> Int = { summary.outcomes[$0] ?? 0 }
        if context.json {
            c.json(.object([("type", .string("summary")), ("records", .int(Int64(summary.records))),
                            ("outcomes", .object(AnalysisResult.Outcome.allCases.map { ($0.rawValue, .int(Int64(count($0)))) })),
                            ("seconds", .double((summary.seconds * 1000).rounded() / 1000))]))
        } else {
            c.out(String(format: "analyze: %d records: analysed %d, skipped %d, failed %d in %.2f s",
                         summary.records, count(.analysed), count(.skipped), count(.failed), summary.seconds))
        }
        return summary.failed == 0 ? .success : .failure
    }

    static func text(_ r: AnalysisResult) -> String {
        var line = "\(r.outcome.rawValue) \(r.recordId)"
        if r.outcome == .analysed {
            line += " media \(r.mediaFiles)" + (r.mediaErrors > 0 ? " (\(r.mediaErrors) unreadable)" : "")
            if let t = r.thumbnail { line += " thumbnail \(t)" }
        }
        if let e = r.error { line += " error: \(e)" }
        return line
    }

    static func json(_ r: AnalysisResult) -> JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string("record")), ("recordId", .string(r.recordId.hex)),
                                             ("outcome", .string(r.outcome.rawValue))]
        if r.outcome == .analysed {
            fields += [("mediaFiles", .int(Int64(r.mediaFiles))), ("mediaErrors", .int(Int64(r.mediaErrors))),
                       ("thumbnail", r.thumbnail.map { .string($0) } ?? .null)]
        }
        if let e = r.error { fields.append(("error", .string(e))) }
        return .object(fields)
    }
}
