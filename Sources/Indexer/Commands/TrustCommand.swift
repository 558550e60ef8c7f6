import Archive
import Crypto
import Custody
import Foundation
import Ingest

/// `trust add|list|remove [PEM|FINGERPRINT] [--tsa]`: the archive's own trust anchors.
struct TrustCommand: Command {
    static let name = "trust"
    static let abstract = "Add, list or remove the archive's signer and TSA trust anchors."
    static let discussion = """
    'trust add PEM' stores every certificate of the PEM file as a signer anchor (--tsa: a TSA
    anchor); 'trust remove PEM|FINGERPRINT' removes them (FINGERPRINT: SHA-256 of the
    certificate DER, 64 hex digits); 'trust list' prints '<role> <fingerprint> <subject>' per
    anchor. Each anchor added or removed is a custody event ('metadata modification').
    Ingest uses these anchors plus its --trust/--tsa-trust; 'reverify' re-evaluates stored
    records against them. Exit 1 when add/remove changed nothing.
    """
    static let options = [
        OptionSpec("tsa", help: "The anchors are timestamp authorities (default: signers)."),
        OptionSpec("operator", value: "name", help: "Operator named in custody events (default: $USER)."),
        OptionSpec("organization", value: "name", help: "Organization named in custody events (default: $EXHIBIT_ORGANIZATION; none: not stated)."),
    ]
    static let arguments = [
        ArgumentSpec("action", help: "add, list or remove.", completion: .choices(["add", "list", "remove"])),
        ArgumentSpec("pem", help: "PEM file (add/remove) or certificate fingerprint (remove).", optional: true, completion: .file),
    ]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let action = args.positionals.first ?? ""
        let actions = ["add", "list", "remove"]
        guard actions.contains(action) else {
            throw UsageError("unknown action '\(action)': use add, list or remove" + Suggestion.didYouMean(action, among: actions), command: name)
        }
        let role: TrustRole = args.flag("tsa") ? .tsa : .signer
        let archive = try context.openArchive(access: action == "list" ? .readIfNotWritable : .readWrite, blobs: false)
        let anchors = archive.trustAnchors
        let agent = CustodyAgent.current(operator: args.value("operator"), organization: args.value("organization"), environment: context.environment)
        let c = context.console
        switch action {
        case "list":
            guard args.positionals.count == 1 else { throw UsageError("'trust list' takes no file", command: name) }
            for a in try anchors.list(args.flag("tsa") ? .tsa : nil) {
                if context.json {
                    c.json(.object([("role", .string(a.role.rawValue)), ("fingerprint", .string(a.fingerprint)),
                                    ("subject", .string(a.certificate.subject)), ("issuer", .string(a.certificate.issuer))]))
                } else {
                    c.out("\(a.role.rawValue) \(a.fingerprint) \(a.certificate.subject)")
                }
            }
            return .success
        case "add", "remove":
            guard args.positionals.count == 2 else { throw UsageError("'trust \(action)' needs a PEM file", command: name) }
            let arg = args.positionals[1]
            let changed: [String]
            if action == "add" {
                changed = try anchors.add(try IngestCommand.certificates([arg], label: "<pem>", command: name), role: role,
                                                agent: agent, custody: archive.custodyStore)
            } else {
                let fps = arg.count == 64 && Hex.decode(arg.lowercased()) != nil && !FileManager.default.fileExists(atPath: arg)
                    ? [arg.lowercased()] : try IngestCommand.certificates([arg], label: "<pem>", command: name).map(\.sha256Fingerprint)
                changed = try anchors.remove(fingerprints: fps, role: role, agent: agent, custody: archive.custodyStore)
            }
            let verb = action == "add" ? "added" : "removed"
            for fp in changed {
                if context.json { c.json(.object([("action", .string(verb)), ("role", .string(role.rawValue)), ("fingerprint", .string(fp))])) }
                else { c.out("\(verb) \(role.rawValue) \(fp)") }
            }
            if changed.isEmpty { c.err("trust: nothing \(verb) (\(action == "add" ? "already present" : "not present"))") }
            return changed.isEmpty ? .failure : .success
        default:
            throw UsageError("unknown action '\(action)': use add, list or remove", command: name)
        }
    }
}
