import Custody
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
    Selects records with the same filters as 'query' (none: every record), reads each
    record's bytes from the store (verified against their IDs), verifies them again with the
    archive's anchors plus --trust/--tsa-trust, replaces the record's verification fields and
    index entries, and logs a 'validation' event per record. One line per record:
    <record-id> <integrity> <trust> [(was <integrity> <trust>)] [sidecars <sink=state;...>
    (was <sink=state;...>)], then a summary; a record counts as changed when its integrity,
    trust or a sink state changed. A record whose stored bytes no longer match their SHA-256
    is refused (index.record.damaged, named on stderr and in the summary; nothing is written
    for it) and the others go on. Exit 1 if any record is not intact, could not be
    re-verified or was refused.
    """
    static let options = QueryCommand.filterOptions + [
        OptionSpec("anchors", value: "pem", help: "Extra signer trust anchors for this run (PEM; repeatable).", completion: .file),
        OptionSpec("tsa-anchors", value: "pem", help: "Extra TSA trust anchors for this run (PEM; repeatable).", completion: .file),
        OptionSpec("operator", value: "name", help: "Operator named in custody events (default: $USER)."),
        OptionSpec("organization", value: "name", help: "Organization named in custody events (default: $EXHIBIT_ORGANIZATION; none: not stated)."),
    ]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let selection = try RecordSelection(args, command: name)
        let archive = try context.openArchive()
        let verifier = CaptureVerifier(
            signerAnchors: try archive.trustAnchors.trustAnchors(.signer, adding: IngestCommand.certificates(args.allValues("anchors"), label: "--anchors", command: name)),
            tsaAnchors: try archive.trustAnchors.trustAnchors(.tsa, adding: IngestCommand.certificates(args.allValues("tsa-anchors"), label: "--tsa-anchors", command: name)))
        let agent = CustodyAgent.current(operator: args.value("operator"), organization: args.value("organization"), environment: context.environment)
        var selected: [ContentID]?
        if !selection.isEverything {
            let r = try QueryCommand.queryErrors { try selection.query(archive.records) }
            selected = r.matches + r.indeterminate
        }
        let c = context.console
        var count = 0, changed = 0, attention = 0, failed = 0
        let bar = ProgressBar(console: c, items: 0, bytes: 0)
        if bar.isShown { bar.setTotal(items: try selected?.count ?? archive.records.count(RecordFilter()).matches, bytes: 0) }
        defer { bar.finish() }
        // A record whose stored bytes no longer match is refused (named on stderr, counted as
        // failed, listed in the summary); the others are re-verified.
        var refused: [ContentID] = []
        try Reverifier(archive: archive, verifier: verifier, agent: agent).run(selected, onRefused: { id, error in
            count += 1
            failed += 1
            refused.append(id)
            bar.advance(items: 1, bytes: 0)
            c.err("reverify: refused: \(error)")
        }) { r in
            count += 1
            bar.advance(items: 1, bytes: r.report?.files.reduce(0) { $0 + $1.size } ?? 0)
            if r.changed { changed += 1 }
            if r.error != nil { failed += 1 } else if r.report?.needsAttention == true { attention += 1 }
            if context.json {
                var fields: [(String, JSONValue)] = [
                    ("type", .string("record")), ("recordId", .string(r.recordId.hex)),
                    ("integrity", .string(r.after.integrity.rawValue)), ("trust", r.after.trust.map { .string($0.rawValue) } ?? .null),
                    ("previousIntegrity", .string(r.before.integrity.rawValue)),
                    ("previousTrust", r.before.trust.map { .string($0.rawValue) } ?? .null),
                    ("sidecars", .string(Self.summary(r.sidecarsAfter))),
                    ("previousSidecars", .string(Self.summary(r.sidecarsBefore))),
                    ("changed", .bool(r.changed)),
                ]
                if let e = r.error { fields.append(("error", .string(e))) }
                c.json(.object(fields))
            } else {
                var line = "\(r.recordId) \(r.after.integrity.rawValue) \(r.after.trust?.rawValue ?? "-")"
                if r.changed { line += " (was \(r.before.integrity.rawValue) \(r.before.trust?.rawValue ?? "-"))" }
                if r.sidecarsBefore != r.sidecarsAfter {
                    line += " sidecars \(Self.summary(r.sidecarsAfter)) (was \(Self.summary(r.sidecarsBefore)))"
                }
                if let e = r.error { line += " error: \(e)" }
                c.out(line)
            }
        }
        if context.json {
            c.json(.object([("type", .string("summary")), ("records", .int(Int64(count))), ("changed", .int(Int64(changed))),
                            ("attention", .int(Int64(attention))), ("failed", .int(Int64(failed))),
                            ("refused", .array(refused.map { .string($0.hex) }))]))
        } else {
            for id in refused { c.out("not reverified: \(id) refused (\(StatusCode.indexRecordDamaged): its stored bytes no longer match)") }
            c.out("reverify: \(count) records, \(changed) changed, \(attention) need attention, \(failed) failed")
        }
        return attention + failed == 0 ? .success : .failure
    }

    /// Sink states as `sink=state` pairs sorted by sink, joined by `;` (as `query` prints them).
    static func summary(_ sidecars: [SidecarSink: SidecarState]) -> String {
        sidecars.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value.rawValue)" }.joined(separator: ";")
    }
}
