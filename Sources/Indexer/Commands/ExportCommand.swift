import Archive
import Custody
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
    custody.json by the archive key), archive-cert.pem, custody.jsonld (CASE/UCO), METS.xml
    (METS with PREMIS 3, as Archivematica writes it) and report.html (open it in a browser;
    it prints on --paper with page numbers; --pdf also writes report.pdf with headless
    Chromium). Appends a 'dissemination' event to the custody log, and a 'digital signature
    generation' event once custody.json is signed. Without --include-source-paths no
    absolute path of the ingesting machine and not the destination reaches the bag.
    Exit 1 when the export fails; 3 when the archive cannot be used.
    """
    static let filterOptions = ["key", "time", "state", "sidecar", "sink", "kind", "trust", "analyses"]
    static let options = [
        OptionSpec("out", short: "o", value: "dir", help: "Directory of the new bag (must not exist or be empty).", completion: .directory),
        OptionSpec("query", help: "Select records with the filters below instead of record IDs."),
    ] + QueryCommand.options.filter { filterOptions.contains($0.long) } + [
        OptionSpec("case", value: "name", help: "Case name written to bag-info.txt (Exhibit-Case) and the report."),
        OptionSpec("operator", value: "name", help: "Who exports (default: $USER); in custody.json and the log."),
        OptionSpec("organization", value: "name", help: "Source-Organization of the bag and for whom the custody events are logged (default: $EXHIBIT_ORGANIZATION, else Exhibit Archive)."),
        OptionSpec("digest", value: "algs", help: "Manifest algorithms, comma-separated (default sha256; e.g. sha256,sha512).",
                   completion: .choices(BagDigest.allCases.filter(\.isWritable).map(\.rawValue))),
        OptionSpec("paper", value: "size", help: "Page size report.html prints on: a4 (default) or letter.",
                   completion: .choices(ReportPaper.allCases.map(\.rawValue))),
        OptionSpec("pdf", help: "Also write report.pdf (headless Chromium prints report.html; EXHIBIT_CHROMIUM names it)."),
        OptionSpec("include-source-paths", help: "Keep the ingesting machine's absolute paths and the destination in the bag."),
    ]
    static let arguments = [ArgumentSpec("record-id", help: "Record IDs or prefixes of ≥ 8 hex digits.", variadic: true, optional: true)]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        guard let out = args.value("out") else { throw UsageError("--out DIR is required", command: name) }
        let usesQuery = args.flag("query")
        let filtersGiven = filterOptions.contains { args.value($0) != nil }
        if usesQuery && !args.positionals.isEmpty { throw UsageError("give record IDs or --query, not both", command: name) }
        if !usesQuery && filtersGiven { throw UsageError("filters need --query", command: name) }
        if !usesQuery && args.positionals.isEmpty { throw UsageError("give record IDs or --query FILTERS", command: name) }
        for given in args.positionals { _ = try RecordReference.checked(given, command: name) }
        let digests = try parseDigests(args.allValues("digest"))
        let paper = try args.value("paper").map { p throws -> ReportPaper in
            guard let paper = ReportPaper(rawValue: p.lowercased()) else {
                throw UsageError("--paper must be a4 or letter, not '\(p)'" + Suggestion.didYouMean(p, among: ["a4", "letter"]), command: name)
            }
            return paper
        } ?? .a4
        let selection = usesQuery ? try RecordSelection(args, command: name) : nil
        let agent = CustodyAgent.current(operator: args.value("operator"), organization: args.value("organization"),
                                         environment: context.environment)

        let archive = try QueryCommand.queryErrors { try context.openArchive() }
        guard let key = try ArchiveKey.load(archive: archive.directory) else {
            throw ExportError.archiveKey("the archive has no key: run `exhibit-archive init` on it")
        }
        // Staging folders of killed exports: removed, or moved into place when their
        // replication event committed (docs/export.md, "Killed exports").
        let journal = try archive.exportJournal()
        let parent = (URL(fileURLWithPath: out).standardizedFileURL.path as NSString).deletingLastPathComponent
        for a in ExportRecovery.run(journal: journal, custody: StoredCustodySource(archive.custodyStore), folders: [parent]) {
            context.console.err("export: \(a.kind.rawValue) stale staging folder \(a.staging) (process \(a.pid)): \(a.detail)")
        }
        var ids: [ContentID] = []
        var indeterminate = 0
        if usesQuery {
            let result = try QueryCommand.queryErrors { try selection?.query(archive.records) ?? QueryResult(matches: [], indeterminate: []) }
            ids = result.matches
            indeterminate = result.indeterminate.count
        } else {
            for given in args.positionals { ids.append(try resolve(given, archive.records)) }
        }
        // A record whose stored bytes no longer match is refused, named on stderr (exit 1); the
        // others are exported. Nothing exportable and one refused: that refusal is the error.
        var refused: [(id: ContentID, error: any NamedError)] = []
        var records = try QueryCommand.queryErrors {
            try archive.records.records(ids) { id, error in
                refused.append((id, error))
                context.console.err("export: refused: \(error)")
            }
        }
        if records.isEmpty, let first = refused.first { throw first.error }
        guard !records.isEmpty else { throw ExportError.noRecords }
        records = try analyzePending(records, archive: archive, agent: agent, console: context.console)

        let verifier = CaptureVerifier(signerAnchors: try archive.trustAnchors.trustAnchors(.signer),
                                       tsaAnchors: try archive.trustAnchors.trustAnchors(.tsa))
        let exporter = Exporter(store: archive.blobs, key: key)
        exporter.reverifier = { folder, media in
            verifier.verify(CaptureLocation(deliveryFile: media, captureFolder: folder, dumpRoot: folder))
        }
        exporter.thumbnailer = Exporter.mediaThumbnailer
        exporter.custody = StoredCustodySource(archive.custodyStore)
        let bar = ProgressBar(console: context.console, items: 0, bytes: 0)
        exporter.progress = { files, bytes, totalFiles, totalBytes in
            bar.setTotal(items: totalFiles, bytes: totalBytes)
            bar.update(items: files, bytes: bytes)
        }
        defer { bar.finish() }
        exporter.journal = journal
        var options = Exporter.Options(destination: out, caseName: args.value("case"), operatorName: agent.operator,
                                       toolVersion: agent.tool.version)
        options.tool = agent.tool.name
        options.host = agent.host
        if let org = agent.organization { options.sourceOrganization = org }
        options.custodyOrganization = agent.organization
        options.digests = digests
        options.paper = paper
        options.pdf = args.flag("pdf")
        options.includeSourcePaths = args.flag("include-source-paths")
        options.signerAnchors = try archive.trustAnchors.list(.signer).map(\.fingerprint)
        options.tsaAnchors = try archive.trustAnchors.list(.tsa).map(\.fingerprint)
        let s = try exporter.export(records, options: options)
        bar.finish()

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
                ("signatureEvent", s.signatureEvent.map { .int(Int64($0)) } ?? .null),
                ("digests", .array(s.digests.map { .string($0.rawValue) })),
                ("pdf", s.pdf.map { .string($0) } ?? .null),
                ("refused", .array(refused.map { .string($0.id.hex) })),
            ]))
        } else {
            c.out("exported \(s.records) record(s), \(s.files) file(s), \(s.bytes) bytes to \(s.bag)")
            c.out("bag \(s.externalIdentifier)")
            if let seq = s.replicationEvent { c.out("custody log: dissemination event \(seq)") }
            c.out("custody.json signed by archive key \(s.archiveKeyFingerprint)"
                  + (s.signatureEvent.map { " (custody log: digital signature generation event \($0))" } ?? ""))
            c.out("manifests: " + s.digests.map(\.rawValue).joined(separator: ", "))
            if indeterminate > 0 { c.out("not exported: \(indeterminate) record(s) indeterminate under --time") }
            for r in s.changedRecords { c.out("changed since ingest (see custody.json): \(r)") }
            if let pdf = s.pdf { c.out("report.pdf: \(pdf)") }
            c.out("open \(s.bag)/report.html in a browser; check the bag with: exhibit-archive verify-export \(s.bag)")
            for r in refused { c.out("not exported: \(r.id) refused (\(r.error.statusCode): its stored bytes no longer match)") }
        }
        return refused.isEmpty ? .success : .failure
    }

    /// `--digest` values (comma lists, repeatable): sha256 when none.
    static func parseDigests(_ given: [String]) throws -> [BagDigest] {
        var out: [BagDigest] = []
        let names = BagDigest.allCases.filter(\.isWritable).map(\.rawValue)
        for part in given.flatMap({ $0.split(separator: ",").map { String($0).lowercased() } }) {
            guard let d = BagDigest(rawValue: part), d.isWritable else {
                throw UsageError("--digest must be one or more of \(names.joined(separator: ", ")), not '\(part)'"
                    + Suggestion.didYouMean(part, among: names), command: name)
            }
            if !out.contains(d) { out.append(d) }
        }
        return out.isEmpty ? [.sha256] : out
    }

    /// A full record ID or an unambiguous prefix of ≥ 8 hex digits.
    static func resolve(_ given: String, _ index: any RecordStore<IndexedRecord>) throws -> ContentID {
        guard let id = try RecordReference.resolve(given, in: index, command: name) else { throw ExportError.unknownRecord(given) }
        return id
    }
}
