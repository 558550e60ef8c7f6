import Foundation
import Ground
import Ingest
import Query
import Verify

/// `reverify [filters]`: re-evaluates stored records from the stored bytes against today's anchors.
struct ReverifyCommand: Command {
    static let name = "reverify"
    static let abstract = "Re-verify stored records from their stored bytes against today's trust anchors."
    static let discussion = """
    Selects records with the same filters as 'query' (none: every record), exports each
    record's bytes from the store (verified against their IDs), verifies them again with the
    archive's anchors plus --trust/--tsa-trust, replaces the record's verification fields and
    index entries, and logs a 'validation' event per record. One line per record:
    <record-id> <integrity> <trust> [(was <integrity> <trust>)], then a summary. Exit 1 if any
    record is not intact or could not be re-verified.
    """
    static let options = QueryCommand.filterOptions + [
        OptionSpec("anchors", value: "pem", help: "Extra signer trust anchors for this run (PEM; repeatable)."),
        OptionSpec("tsa-anchors", value: "pem", help: "Extra TSA trust anchors for this run (PEM; repeatable)."),
        OptionSpec("operator", value: "name", help: "Operator named in custody events (default: $USER)."),
    ]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let filter = try QueryCommand.parseFilter(args, command: name)
        let archive = try Archive(store: context.openStore())
        let verifier = CaptureVerifier(
            signerAnchors: try archive.trust.trustAnchors(.signer, adding: IngestCommand.certificates(args.allValues("anchors"), option: "anchors")),
            tsaAnchors: try archive.trust.trustAnchors(.tsa, adding: IngestCommand.certificates(args.allValues("tsa-anchors"), option: "tsa-anchors")))
        let agent = CustodyAgent.current(operator: args.value("operator"), environment: context.environment)
        var selected: [ContentID]?
        if filter != RecordFilter() {
            let r = try archive.index.query(filter)
            selected = r.matches + r.indeterminate
        }
        let c = context.console
        var count = 0, changed = 0, attention = 0, failed = 0
        try Reverifier(archive: archive, verifier: verifier, agent: agent).run(selected) { r in
            count += 1
            if r.changed { changed += 1 }
            if r.error != nil { failed += 1 } else if r.report?.needsAttention == true { attention += 1 }
            if context.json {
                var fields: [(String, JSONValue)] = [
                    ("type", .string("record")), ("recordId", .string(r.recordId.hex)),
                    ("integrity", .string(r.after.integrity.rawValue)), ("trust", r.after.trust.map { .string($0.rawValue) } ?? .null),
                    ("previousIntegrity", .string(r.before.integrity.rawValue)),
                    ("previousTrust", r.before.trust.map { .string($0.rawValue) } ?? .null),
                    ("changed", .bool(r.changed)),
                ]
                if let e = r.error { fields.append(("error", .string(e))) }
                c.json(.object(fields))
            } else {
                var line = "\(r.recordId) \(r.after.integrity.rawValue) \(r.after.trust?.rawValue ?? "-")"
                if r.changed { line += " (was \(r.before.integrity.rawValue) \(r.before.trust?.rawValue ?? "-"))" }
                if let e = r.error { line += " error: \(e)" }
                c.out(line)
            }
        }
        if context.json {
            c.json(.object([("type", .string("summary")), ("records", .int(Int64(count))), ("changed", .int(Int64(changed))),
                            ("attention", .int(Int64(attention))), ("failed", .int(Int64(failed)))]))
        } else {
            c.out("reverify: \(count) records, \(changed) changed, \(attention) need attention, \(failed) failed")
        }
        return attention + failed == 0 ? .success : .failure
    }
}
