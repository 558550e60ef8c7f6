import Foundation
import Ingest

/// `log [--record ID] [--verify]`: the custody log.
struct LogCommand: Command {
    static let name = "log"
    static let abstract = "List custody events, or prove the hash chain unbroken (--verify)."
    static let discussion = """
    One line per event: <seq> <time> <event-type> <outcome> <operator>@<host> <tool>/<version>
    <objects> -- <detail>. JSON: one object per event (seq, version, time, eventType,
    eventTypeURI, operator, tool, host, objects, outcome, outcomeDetail, prevHash, hash; v2
    events also salt and bodyHash). Events are v1 (older archives) or v2 (redactable in
    exports); a log may hold both. --verify walks
    the whole chain and prints 'changed|removed|inserted <seq>: <detail>' per broken event,
    then a summary; exit 1 when the chain is broken.
    """
    static let options = [
        OptionSpec("record", value: "id", help: "Only events naming this record (or blob) ID."),
        OptionSpec("verify", help: "Check every event's hash and every link of the chain."),
    ]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let archive = try Archive(store: context.openStore(access: .readIfNotWritable))
        let c = context.console
        if args.flag("verify") {
            let v = try archive.custody.verify()
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
        let events = try args.value("record").map { try archive.custody.events(forObject: $0.lowercased()) }
            ?? archive.custody.allEvents()
        for e in events { context.json ? c.json(json(e)) : c.out(text(e)) }
        return .success
    }

    static func text(_ e: CustodyEvent) -> String {
        let objects = e.objects.map { "\($0.kind):\($0.id)" }.joined(separator: ",")
        return "\(e.seq) \(e.time) \(e.eventType.rawValue) \(e.outcome.rawValue) \(e.operator)@\(e.host) "
            + "\(e.tool.name)/\(e.tool.version) \(objects.isEmpty ? "-" : objects) -- \(e.outcomeDetail)"
    }

    static func json(_ e: CustodyEvent) -> JSONValue {
        var v2: [(String, JSONValue)] = []
        if let salt = e.salt, let body = e.computedBodyHash() { v2 = [("salt", .string(salt)), ("bodyHash", .string(body))] }
        return .object([
            ("seq", .int(Int64(e.seq))), ("version", .int(Int64(e.version.rawValue))),
            ("time", .string(e.time)), ("eventType", .string(e.eventType.rawValue)),
            ("eventTypeURI", .string(e.eventType.uri)), ("operator", .string(e.operator)),
            ("tool", .object([("name", .string(e.tool.name)), ("version", .string(e.tool.version))])),
            ("host", .string(e.host)),
            ("objects", .array(e.objects.map { .object([("kind", .string($0.kind)), ("id", .string($0.id))]) })),
            ("outcome", .string(e.outcome.rawValue)), ("outcomeDetail", .string(e.outcomeDetail)),
        ] + v2 + [("prevHash", .string(e.prevHash)), ("hash", .string(e.hash))])
    }
}
