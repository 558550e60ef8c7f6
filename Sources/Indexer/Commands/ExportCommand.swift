import CAS
import Export
import Foundation
import Ground
import Ingest
import Query
import Verify

/// `export (RECORD_ID... | --query FILTERS) --out DIR`: a signed chain-of-custody BagIt bag.
struct ExportCommand: Command {
    static let name = "export"
    static let abstract = "Export records as a signed chain-of-custody BagIt bag."
    static let discussion = """
    Selects records by ID (full or a prefix of at least 8 hex digits) or with --query and the
    query command's filters (--query alone selects every record; records only indeterminate
    under --time are not exported and are counted). Writes a BagIt 1.0 bag to DIR (which must
    not exist or be empty): data/<record-id>/ holds every stored file of each record,
    byte-identical from the store (re-hashed on the way out: a blob that no longer matches its
    ID aborts the export and no bag is left); custody.json (both verifications, sinks, files,
    custody events and the chain to the log head), custody.cose (COSE_Sign1 ES256 over
    custody.json by the archive key), archive-cert.pem, custody.jsonld (CASE/UCO) and
    report.html (open it in a browser). Appends a 'replication' event to the custody log.
    Exit 1 when the export fails; 3 when the archive cannot be used.
    """
    static let filterOptions = ["key", "time", "state", "sidecar", "sink", "kind", "trust"]
    static let options = [
        OptionSpec("out", short: "o", value: "dir", help: "Directory of the new bag (must not exist or be empty)."),
        OptionSpec("query", help: "Select records with the filters below instead of record IDs."),
    ] + QueryCommand.options.filter { filterOptions.contains($0.long) } + [
        OptionSpec("case", value: "name", help: "Case name written to bag-info.txt (Exhibit-Case) and the report."),
        OptionSpec("operator", value: "name", help: "Who exports (default: $USER); in custody.json and the log."),
        OptionSpec("organization", value: "name", help: "Source-Organization of the bag (default: Exhibit Archive)."),
    ]
    static let arguments = [ArgumentSpec("record-id", help: "Record IDs or prefixes of ≥ 8 hex digits.", variadic: true, optional: true)]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        guard let out = args.value("out") else { throw UsageError("--out DIR is required", command: name) }
        let usesQuery = args.flag("query")
        let filtersGiven = filterOptions.contains { args.value($0) != nil }
        if usesQuery && !args.positionals.isEmpty { throw UsageError("give record IDs or --query, not both", command: name) }
        if !usesQuery && filtersGiven { throw UsageError("filters need --query", command: name) }
        if !usesQuery && args.positionals.isEmpty { throw UsageError("give record IDs or --query FILTERS", command: name) }
        let filter = usesQuery ? try QueryCommand.parseFilter(args, command: name) : RecordFilter()
        let agent = CustodyAgent.current(operator: args.value("operator"), environment: context.environment)

        let archive = try QueryCommand.queryErrors { try Archive(store: context.openStore()) }
        guard let key = try ArchiveKey.load(archive: archive.store.directory) else {
            throw ExportError.archiveKey("the archive has no key: run `exhibit-archive init` on it")
        }
        var ids: [ContentID] = []
        var indeterminate = 0
        if usesQuery {
            let result = try QueryCommand.queryErrors { try archive.index.query(filter) }
            ids = result.matches
            indeterminate = result.indeterminate.count
        } else {
            for given in args.positionals { ids.append(try resolve(given, archive.index)) }
        }
        let records = try QueryCommand.queryErrors { try archive.index.records(ids) }
        guard !records.isEmpty else { throw ExportError.noRecords }

        let verifier = CaptureVerifier(signerAnchors: try archive.trust.trustAnchors(.signer),
                                       tsaAnchors: try archive.trust.trustAnchors(.tsa))
        let exporter = Exporter(store: archive.store, key: key)
        exporter.reverifier = { folder, media in
            verifier.verify(CaptureLocation(deliveryFile: media, captureFolder: folder, dumpRoot: folder))
        }
        exporter.thumbnailer = Exporter.mediaThumbnailer
        exporter.custody = archive.custody
        var options = Exporter.Options(destination: out, caseName: args.value("case"), operatorName: agent.operator,
                                       toolVersion: agent.tool.version)
        options.tool = agent.tool.name
        options.host = agent.host
        if let org = args.value("organization") { options.sourceOrganization = org }
        options.signerAnchors = try archive.trust.list(.signer).map(\.fingerprint)
        options.tsaAnchors = try archive.trust.list(.tsa).map(\.fingerprint)
        let s = try exporter.export(records, options: options)

        let c = context.console
        if context.json {
            c.json(.object([
                ("bag", .string(s.bag)), ("externalIdentifier", .string(s.externalIdentifier)),
                ("records", .int(Int64(s.records))), ("files", .int(Int64(s.files))), ("bytes", .int(Int64(s.bytes))),
                ("indeterminate", .int(Int64(indeterminate))),
                ("replicationEvent", s.replicationEvent.map { .int(Int64($0)) } ?? .null),
                ("archiveKey", .string(s.archiveKeyFingerprint)),
                ("changedSinceIngest", .array(s.changedRecords.map { .string($0) })),
                ("report", .string(s.bag + "/report.html")),
            ]))
        } else {
            c.out("exported \(s.records) record(s), \(s.files) file(s), \(s.bytes) bytes to \(s.bag)")
            c.out("bag \(s.externalIdentifier)")
            if let seq = s.replicationEvent { c.out("custody log: replication event \(seq)") }
            c.out("custody.json signed by archive key \(s.archiveKeyFingerprint)")
            if indeterminate > 0 { c.out("not exported: \(indeterminate) record(s) indeterminate under --time") }
            for r in s.changedRecords { c.out("changed since ingest (see custody.json): \(r)") }
            c.out("open \(s.bag)/report.html in a browser; check the bag with: exhibit-archive verify-export \(s.bag)")
        }
        return .success
    }

    /// A full record ID or an unambiguous prefix of ≥ 8 hex digits.
    static func resolve(_ given: String, _ index: RecordIndex) throws -> ContentID {
        let prefix = given.lowercased()
        guard (8...64).contains(prefix.utf8.count),
              prefix.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw UsageError("'\(given)' is not a record ID or a prefix of one (8 to 64 hex digits)", command: name)
        }
        let found = try QueryCommand.queryErrors { try index.recordIds(withPrefix: prefix, limit: 2) }
        guard let id = found.first else { throw ExportError.unknownRecord(given) }
        guard found.count == 1 else { throw UsageError("'\(given)' matches several records", command: name) }
        return id
    }
}
