import Foundation
import Ingest
import Query

/// `show RECORD_ID [--json]`: everything the archive holds about one record.
struct ShowCommand: Command {
    static let name = "show"
    static let abstract = "Show one record: fields, sidecars, variants, files, findings, custody."
    static let discussion = """
    RECORD_ID is the full record ID or an unambiguous prefix of at least 8 hex digits. Text:
    'field value' lines ('sidecar <sink> <state>', 'variant <blob> <size> <first-ingested>',
    'source <blob> <path>', 'file <role> <blob> <size> <path>', 'derived <kind> <blob> <size>
    <w>x<h> <source-blob> <tool>' or 'derived <kind> none <source-blob> <finding>' for blobs made
    from the evidence (thumbnails), never evidence themselves), then every finding of the stored
    verification report as 'report.<path> <value>' lines, then one 'custody <seq> <time>
    <event-type> <outcome> <operator> <detail>' line per custody event naming the record or one
    of its blobs. JSON: one object {"record":{…},"report":{…},"custody":[…]}. Exit 1 when no
    record matches; exit 2 when the prefix is ambiguous or not hex.
    """
    static let arguments = [ArgumentSpec("record-id", help: "A record ID or a prefix of ≥ 8 hex digits.")]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let prefix = args.positionals[0].lowercased()
        guard (8...64).contains(prefix.utf8.count), prefix.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw UsageError("'\(args.positionals[0])' is not a record ID or a prefix of one (8 to 64 hex digits)", command: name)
        }
        let store = try context.openStore()
        let index = try QueryCommand.queryErrors { try RecordIndex(environment: store.environment) }
        let found = try QueryCommand.queryErrors { try index.recordIds(withPrefix: prefix, limit: 5) }
        guard let id = found.first else { throw QueryError.notFound(prefix) }
        guard found.count == 1 else {
            throw UsageError("'\(prefix)' matches several records: \(found.map(\.hex).joined(separator: ", "))\(found.count == 5 ? ", …" : "")", command: name)
        }
        guard let record = try QueryCommand.queryErrors({ try index.get(recordId: id) }) else { throw QueryError.notFound(id.hex) }
        let custody = try CustodyLog(environment: store.environment)
        var events: [UInt64: CustodyEvent] = [:]
        let objects = [record.recordId] + record.variants.map(\.blobId) + record.files.map(\.blobId)
        for object in Set(objects.map(\.hex)) {
            for e in try custody.events(forObject: object) { events[e.seq] = e }
        }
        let ordered = events.keys.sorted().compactMap { events[$0] }
        if context.json {
            context.console.out(try jsonLine(record, ordered))
        } else {
            printText(record, ordered, context.console)
        }
        return .success
    }

    /// `{"record":…,"report":…,"custody":[…]}` on one line, keys sorted; `report` is the stored
    /// report JSON (null, with `reportError`, when it does not parse).
    static func jsonLine(_ record: IndexedRecord, _ events: [CustodyEvent]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var recordObject = try JSONSerialization.jsonObject(with: encoder.encode(record)) as? [String: Any] ?? [:]
        recordObject.removeValue(forKey: "reportJSON")
        var top: [String: Any] = ["record": recordObject,
                                  "custody": try JSONSerialization.jsonObject(with: encoder.encode(events))]
        do {
            top["report"] = try JSONSerialization.jsonObject(with: record.reportJSON, options: [.fragmentsAllowed])
        } catch {
            top["report"] = NSNull()
            top["reportError"] = "stored report is not JSON: \(error.localizedDescription)"
        }
        let data = try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func printText(_ r: IndexedRecord, _ events: [CustodyEvent], _ c: Console) {
        c.out("record \(r.recordId)")
        c.out("kind \(r.kind)")
        c.out("integrity \(r.integrity)")
        c.out("trust \(r.trust?.rawValue ?? "-")")
        c.out("key-fingerprint \(r.keyFingerprint?.hex ?? "-")")
        c.out("capture-time \(r.captureTime ?? "-")")
        c.out("tsa-time \(r.tsaTime ?? "-")")
        c.out("ingest-time \(r.ingestTime)")
        for code in r.failureCodes { c.out("failure-code \(code)") }
        for (sink, state) in r.sidecars.sorted(by: { $0.key < $1.key }) { c.out("sidecar \(sink) \(state)") }
        for v in r.variants {
            c.out("variant \(v.blobId) \(v.size) \(v.firstIngested)")
            for p in v.sourcePaths { c.out("source \(v.blobId) \(p)") }
        }
        for f in r.files { c.out("file \(f.role) \(f.blobId) \(f.size) \(f.relativePath)") }
        for line in derivedLines(r) { c.out(line) }
        if let report = try? JSONDecoder().decode(ReportTree.self, from: r.reportJSON) {
            for line in report.lines(path: "report") { c.out(line) }
        } else {
            c.out("report unreadable")
        }
        for e in events {
            c.out("custody \(e.seq) \(e.time) \(e.eventType.rawValue.replacingOccurrences(of: " ", with: "-")) \(e.outcome.rawValue) \(e.operator) \(e.outcomeDetail)")
        }
    }
}
