import Custody
import Foundation
import Ingest
import Query

/// `log [--record ID] [--verify]`: the custody log.
struct LogCommand: Command {
    static let name = "log"
    static let abstract = "List custody events, or prove the hash chain unbroken (--verify)."
    static let discussion = """
    One line per event: <seq> <time> <event-type> <outcome> <operator>@<host> <tool>/<version>
    <objects> -- <detail>; an event naming more than four objects lists the first four and
    counts the others by kind (',+295(blob=294,export=1)'; --full lists them all). JSON: one object per event (seq, version, time, eventType,
    eventTypeURI, operator, tool, host, objects, outcome, outcomeDetail, prevHash, hash; v2
    events also salt and bodyHash; v3 events also organization). Events are v1 (older
    archives), v2 (redactable in exports) or v3 (v2 with the organization, when one is
    stated); a log may hold all. A v3 event's text line ends with '(for <organization>)'.
    --verify walks
    the whole chain and prints 'changed|removed|inserted <seq>: <detail>' per broken event,
    then a summary; exit 1 when the chain is broken. --record takes a full record or blob ID
    (64 hex digits) or a record ID prefix of at least 8 (as show): a prefix no record has
    exits 1 (index.record.notFound), one several records have or a malformed ID is a usage
    error.
    """
    static let options = [
        OptionSpec("record", value: "id", help: "Only events naming this record (or blob) ID, or a record ID prefix of ≥ 8 hex digits."),
        OptionSpec("verify", help: "Check every event's hash and every link of the chain."),
        OptionSpec("full", help: "List every object of each event in the text lines (default: the first four and counts)."),
    ]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        if let given = args.value("record") { _ = try RecordReference.checked(given, command: name) }
        let archive = try context.openArchive(access: .readIfNotWritable, blobs: false)
        let c = context.console
        if args.flag("verify") {
            let v = try archive.custodyStore.verifyChain()
            for p in v.problems {
                if context.json {
                    c.json(.object([("type", .string("problem")), ("kind", .string(p.kind.rawValue)),
                                    ("seq", .int(Int64(p.seq))), ("detail", .string(p.detail))]))
                } else {
                    c.out("\(p.kind.rawValue) \(p.seq): \(p.detail)")
                }
            }
            if context.json {
                c.json(.object([("type", .string("summary")), ("events", .int(Int64(v.events))),
                                ("head", .int(Int64(v.headSeq))), ("intact", .bool(v.isIntact)),
                                ("problems", .int(Int64(v.problems.count)))]))
            } else {
                c.out("custody log: \(v.events) events, " + (v.isIntact ? "chain intact" : "\(v.problems.count) problem(s)"))
            }
            return v.isIntact ? .success : .failure
        }
        var object: String?
        if let given = args.value("record") {
            let id = given.lowercased()
            if id.utf8.count == 64 {
                object = id       // a record or a blob, named in full
            } else {
                guard let found = try RecordReference.resolve(given, in: archive.records, command: name) else {
                    throw QueryError.notFound(id)
                }
                object = found.hex
            }
        }
        let events = try object.map { try archive.custodyStore.custodyEvents(forObject: $0) } ?? archive.custodyStore.custodyEvents()
        for e in events { context.json ? c.json(json(e)) : c.out(text(e, full: args.flag("full"))) }
        return .success
    }

    /// Objects listed in full on a text line before the rest are counted.
    static let listedObjects = 4

    static func text(_ e: CustodyEvent, full: Bool = false) -> String {
        "\(e.seq) \(e.time) \(e.eventType.rawValue) \(e.outcome.rawValue) \(e.operator)@\(e.host) "
            + "\(e.tool.name)/\(e.tool.version) \(objects(e.objects, full: full)) -- \(e.outcomeDetail)"
            + ((e.organization ?? "").isEmpty ? "" : " (for \(e.organization ?? ""))")
    }

    /// `kind:id,…` for the first four objects, then `+N(blob=294,export=1)` for the others
    /// (every one with `full`); `-` when there are none. No spaces, so the field stays one word.
    static func objects(_ list: [CustodyEvent.Object], full: Bool) -> String {
        guard !list.isEmpty else { return "-" }
        let shown = full ? list[...] : list.prefix(listedObjects)
        var text = shown.map { "\($0.kind):\($0.id)" }.joined(separator: ",")
        let rest = list.dropFirst(shown.count)
        if !rest.isEmpty {
            var kinds: [String: Int] = [:]
            for o in rest { kinds[o.kind, default: 0] += 1 }
            text += ",+\(rest.count)(" + kinds.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + ")"
        }
        return text
    }

    static func json(_ e: CustodyEvent) -> JSONValue {
        var v2: [(String, JSONValue)] = []
        if let salt = e.salt, let body = e.computedBodyHash() { v2 = [("salt", .string(salt)), ("bodyHash", .string(body))] }
        return .object([
            ("seq", .int(Int64(e.seq))), ("version", .int(Int64(e.version.rawValue))),
            ("time", .string(e.time)), ("eventType", .string(e.eventType.rawValue)),
            ("eventTypeURI", .string(e.eventType.uri)), ("operator", .string(e.operator)),
        ] + (e.organization.map { [("organization", JSONValue.string($0))] } ?? []) + [
            ("tool", .object([("name", .string(e.tool.name)), ("version", .string(e.tool.version))])),
            ("host", .string(e.host)),
            ("objects", .array(e.objects.map { .object([("kind", .string($0.kind)), ("id", .string($0.id))]) })),
            ("outcome", .string(e.outcome.rawValue)), ("outcomeDetail", .string(e.outcomeDetail)),
        ] + v2 + [("prevHash", .string(e.prevHash)), ("hash", .string(e.hash))])
    }
}
