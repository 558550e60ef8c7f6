import Archive
import Custody
import Foundation
import Ingest
import Query

/// `show RECORD_ID [--json]`: everything the archive holds about one record.
struct ShowCommand: Command {
    static let name = "show"
    static let abstract = "Show one record: fields, sidecars, variants, files, findings, custody."
    static let discussion = """
    RECORD_ID is the full record ID or an unambiguous prefix of at least 8 hex digits. Text, for
    people: the line 'record <id>', its kind, report id and 'blobs in' (where the archive's
    blobs live: lmdb:DIR or s3://BUCKET[/PREFIX] at ENDPOINT (REGION)) and 'index in' (where
    its records live: lmdb:DIR, or postgresql CONNECTION schema SCHEMA), then sections as verify
    prints them ('  key:  value'): Integrity (state, failure codes, notes, time stamp, bundles, streamed chunks), Signer
    (trust, key, subject, issuer), Time (capture time @ rung, TSA time, ingest time),
    Sidecars (per sink: state, file, committed and actual SHA-256), Files (variants with their
    source paths, stored files, derived blobs such as thumbnails, which are not evidence, and
    the media analyses: 'pending' after ingest --defer-media, else 'done by' tool and
    libraries) and Custody (one line per event naming the record or one of its blobs). --json
    prints everything: one object {"record":{…},"report":{…},"custody":[…],"blobLocation":"…",
    "indexLocation":"…"} with the full stored report. Exit 1 when no record matches; exit 2 when the prefix is
    ambiguous or not hex.
    """
    static let arguments = [ArgumentSpec("record-id", help: "A record ID or a prefix of ≥ 8 hex digits.")]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        _ = try RecordReference.checked(args.positionals[0], command: name)
        let archive = try QueryCommand.queryErrors { try context.openArchive(access: .readIfNotWritable, blobs: false) }
        let records = archive.records, custody = archive.custodyStore
        guard let id = try RecordReference.resolve(args.positionals[0], in: records, command: name) else {
            throw QueryError.notFound(args.positionals[0].lowercased())
        }
        guard let record = try QueryCommand.queryErrors({ try records.get(recordId: id) }) else { throw QueryError.notFound(id.hex) }
        var events: [UInt64: CustodyEvent] = [:]
        let objects = [record.recordId] + record.variants.map(\.blobId) + record.files.map(\.blobId)
        for object in Set(objects.map(\.hex)) {
            for e in try custody.custodyEvents(forObject: object) { events[e.seq] = e }
        }
        let ordered = events.keys.sorted().compactMap { events[$0] }
        let location = StatsCommand.blobLocation(archive.directory, archive.configuration, context)
        let indexLocation = StatsCommand.indexLocation(archive.directory, archive.configuration).description
        if context.json {
            context.console.jsonLine(try jsonLine(record, ordered, blobs: location, index: indexLocation))
        } else {
            for line in text(record, ordered, blobs: location, index: indexLocation) { context.console.out(line) }
        }
        return .success
    }

    /// `{"record":…,"report":…,"custody":[…]}` on one line, keys sorted; `report` is the stored
    /// report JSON (null, with `reportError`, when it does not parse).
    static func jsonLine(_ record: IndexedRecord, _ events: [CustodyEvent], blobs: BlobLocation? = nil, index: String? = nil) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var recordObject = try JSONSerialization.jsonObject(with: encoder.encode(record)) as? [String: Any] ?? [:]
        recordObject.removeValue(forKey: "reportJSON")
        recordObject["reportId"] = record.reportId.hex   // the stored report's SHA-256 (idx.reports)
        var top: [String: Any] = ["record": recordObject,
                                  "custody": try JSONSerialization.jsonObject(with: encoder.encode(events))]
        if let blobs { top["blobLocation"] = blobs.description }
        if let index { top["indexLocation"] = index }
        do {
            top["report"] = try JSONSerialization.jsonObject(with: record.reportJSON, options: [.fragmentsAllowed])
        } catch {
            top["report"] = NSNull()
            top["reportError"] = "stored report is not JSON: \(error.localizedDescription)"
        }
        let data = try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// The `analyses` line: `pending (run analyze)` or `done by TOOL (library version, …)`.
    static func analysesText(_ a: RecordAnalyses) -> String {
        switch a.state {
        case .pending: return "pending (media facts, parallax, chunk recomputation and thumbnail not made yet: run analyze)"
        case .done:
            let libs = (a.libraries ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "done by \(a.tool ?? "an unnamed tool")" + (libs.isEmpty ? "" : " (\(libs))")
        }
    }
}
