import Archive
import Crypto
import Custody
import Foundation
import Ground
import Ingest
import Verify

/// `ingest DUMP...`: verifies and stores every capture of the dumps, one transaction each.
struct IngestCommand: Command {
    static let name = "ingest"
    static let abstract = "Verify and store every capture of capture dumps (idempotent, resumable)."
    static let discussion = """
    Each capture's files (delivery file, sidecars, ring frames, depth, second view, bundles),
    its record and its custody events commit in one transaction. Re-ingesting adds nothing
    ('present'); a known capture under a new source path adds only that path and one custody
    event ('path-added'); the same signed claim as other bytes is a 'variant' of the known
    record. Prints one line per capture: <new|variant|present|failed|path-added> <record-id> <integrity>
    <source-path> [sidecars...], then a summary. JSON: one {"type":"capture",...} line per
    capture, then {"type":"summary",...}. Anchors: the archive's ('trust add') plus --trust /
    --tsa-trust for this run. Exit 1 if any capture is not intact, has a sidecar mismatch or
    missing, or could not be stored; 3 if the archive cannot be written. --defer-media
    commits every new record with its media analyses 'pending' (query --analyses pending
    finds them) for 'analyze' to make from the stored blobs, so a bulk ingest runs at the
    speed of hashing and storing; --no-media leaves them out for good. --enqueue (an archive
    with a PostgreSQL index: init --index) ingests nothing: it registers every capture as a
    job of the archive's work queue, keyed by its dump root and its path under it (enqueueing
    again adds nothing), for 'exhibit-archive worker' processes on any machine that sees the
    dump at the same path; 'exhibit-archive queue' shows their progress.
    """
    static let options = [
        OptionSpec("jobs", short: "j", value: "n", help: "Verification workers (default: the core count)."),
        OptionSpec("trust", value: "pem", help: "Extra signer trust anchors for this run (PEM; repeatable).", completion: .file),
        OptionSpec("tsa-trust", value: "pem", help: "Extra TSA trust anchors for this run (PEM; repeatable).", completion: .file),
        OptionSpec("operator", value: "name", help: "Operator named in custody events (default: $USER)."),
        OptionSpec("organization", value: "name", help: "Organization named in custody events (default: $EXHIBIT_ORGANIZATION; none: not stated)."),
        OptionSpec("no-media", help: "Skip the libav media measurements in reports (facts, parallax, chunk recomputation)."),
        OptionSpec("defer-media", help: "Commit records with their media analyses pending (no facts, parallax, recomputation or thumbnail yet); 'analyze' makes them later."),
        OptionSpec("enqueue", help: "Register every capture as a job of the work queue for 'worker' processes; ingest nothing (needs init --index)."),
    ]
    static let arguments = [ArgumentSpec("dump", help: "Dumps, capture folders or media files.", variadic: true, completion: .file)]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try FileLimitSetting.check(context, command: name)
        guard !args.positionals.isEmpty else { throw UsageError("give at least one dump", command: name) }
        if args.flag("enqueue") { return try enqueue(args, context) }
        let options = try ingestorOptions(args, context, command: name)
        let extraSigners = try certificates(args.allValues("trust"), label: "--trust", command: name)
        let extraTSA = try certificates(args.allValues("tsa-trust"), label: "--tsa-trust", command: name)
        let archive = try context.openArchive()
        var verifier = CaptureVerifier(signerAnchors: try archive.trustAnchors.trustAnchors(.signer, adding: extraSigners),
                                       tsaAnchors: try archive.trustAnchors.trustAnchors(.tsa, adding: extraTSA))
        verifier.measuresMedia = !args.flag("no-media") && !args.flag("defer-media")
        let ingestor = Ingestor(archive: archive, verifier: verifier, options: options)
        let (captures, pathErrors, walkProblems) = Ingestor.walk(args.positionals)
        let c = context.console
        for e in pathErrors { c.err("Error: \(e)") }
        for p in walkProblems { c.err(WalkProblemOutput.text(p)) }
        let total = c.stderrIsTerminal ? Ingestor.estimatedBytes(captures) : 0  // only the bar needs it
        let bar = ProgressBar(console: c, items: captures.count, bytes: total)
        var summary: IngestSummary
        do {
            summary = try ingestor.run(captures) { item in
                bar.advance(items: 1, bytes: item.bytes)
                if context.json { c.json(Self.json(item)) } else { c.out(Self.text(item)) }
            }
        } catch {
            bar.finish()
            // A storage failure under the blobs, the index or the log stops the run (exit 3).
            if let failure = storageFailure(in: error) { throw failure }
            throw error
        }
        bar.finish()
        summary.pathErrors = pathErrors
        summary.walk = walkProblems
        if context.json { c.json(Self.json(summary)) } else { for line in Self.text(summary) { c.out(line) } }
        return summary.isClean ? .success : .failure
    }

    /// The pipeline options `--jobs`, `--operator`, `--organization`, `--no-media` and
    /// `--defer-media` ask for (ingest's and the queue worker's).
    static func ingestorOptions(_ args: ParsedArguments, _ context: CommandContext, command: String) throws -> Ingestor.Options {
        if args.flag("no-media") && args.flag("defer-media") {
            throw UsageError("--no-media and --defer-media exclude each other (--no-media: no analyses; --defer-media: later)", command: command)
        }
        var options = Ingestor.Options()
        if let j = args.value("jobs") {
            guard let n = Int(j), (1...256).contains(n) else { throw UsageError("--jobs must be 1…256, not '\(j)'", command: command) }
            options.jobs = n
        }
        options.agent = CustodyAgent.current(operator: args.value("operator"), organization: args.value("organization"), environment: context.environment)
        options.deferAnalyses = args.flag("defer-media")
        return options
    }

    /// The certificates of PEM files; a file that cannot be read or holds none is a usage
    /// error of `command`, named by `label` (`--trust`, `<pem>`).
    static func certificates(_ paths: [String], label: String, command: String) throws -> [Certificate] {
        try paths.flatMap { path -> [Certificate] in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("\(label): cannot read \(path)", command: command)
            }
            do {
                let certs = try Certificate.parsePEM(String(decoding: data, as: UTF8.self))
                guard !certs.isEmpty else { throw UsageError("\(label): no certificate in \(path)", command: command) }
                return certs
            } catch let e as UsageError { throw e } catch {
                throw UsageError("\(label): \(path): \(error)", command: command)
            }
        }
    }

    // MARK: Output

    static func text(_ item: IngestItem) -> String {
        var line = "\(item.outcome.rawValue) \(item.recordId?.hex ?? "-") \(item.report.integrity.rawValue) \(item.sourcePath)"
        if !item.report.sidecars.isEmpty {
            line += " " + item.report.sidecars.map { "\($0.sink.rawValue)=\($0.state.rawValue)" }.joined(separator: " ")
        }
        if let e = item.report.error { line += " error=\(e.code)" }
        if let e = item.error { line += " failed: \(e)" }
        return line
    }

    static func json(_ item: IngestItem) -> JSONValue {
        let r = item.report
        var fields: [(String, JSONValue)] = [
            ("type", .string("capture")), ("path", .string(item.path)), ("sourcePath", .string(item.sourcePath)),
            ("recordId", item.recordId.map { .string($0.hex) } ?? .null), ("outcome", .string(item.outcome.rawValue)),
            ("integrity", .string(r.integrity.rawValue)), ("kind", .string(r.kind.rawValue)),
            ("trust", r.signer.map { .string($0.trust.rawValue) } ?? .null),
            ("variantBlob", r.sha256.map { .string($0.hex) } ?? .null),
            ("sidecars", .object(r.sidecars.map { ($0.sink.rawValue, .string($0.state.rawValue)) })),
            ("files", .int(Int64(r.files.count))), ("newBlobs", .int(Int64(item.newBlobs))), ("bytes", .int(Int64(item.bytes))),
        ]
        if let e = r.error { fields.append(("itemError", .object([("code", .string(e.code)), ("message", .string(e.message))]))) }
        if let e = item.error { fields.append(("error", .string(e))) }
        return .object(fields)
    }

    static func counts(_ d: [String: Int], _ order: [String]) -> [(String, Int)] {
        order.map { ($0, d[$0] ?? 0) } + d.filter { !order.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    static let outcomeOrder = IngestItem.Outcome.allCases.map(\.rawValue)
    static let integrityOrder = Integrity.allCases.map(\.rawValue)
    static let sidecarOrder = SidecarState.allCases.map(\.rawValue)

    static func json(_ s: IngestSummary) -> JSONValue {
        let obj: ([(String, Int)]) -> JSONValue = { .object($0.map { ($0.0, .int(Int64($0.1))) }) }
        let mbps = s.seconds > 0 ? Double(s.bytes) / 1e6 / s.seconds : 0
        return .object([
            ("type", .string("summary")), ("captures", .int(Int64(s.captures))),
            ("outcomes", obj(counts(s.outcomes, outcomeOrder))),
            ("integrity", obj(counts(s.integrity, integrityOrder))),
            ("sidecars", obj(counts(s.sidecars, sidecarOrder))),
            ("sidecarsBySink", .object(s.sidecarsBySink.sorted { $0.key < $1.key }.map { ($0.key, obj(counts($0.value, sidecarOrder))) })),
            ("itemErrors", .int(Int64(s.itemErrors))), ("pathErrors", .array(s.pathErrors.map { .string($0) })),
            ("walk", .array(s.walk.map(WalkProblemOutput.json))),
            ("attention", .int(Int64(s.attention))), ("newBlobs", .int(Int64(s.newBlobs))),
            ("bytes", .int(Int64(s.bytes))), ("seconds", .double((s.seconds * 1000).rounded() / 1000)),
            ("mbPerSecond", .double((mbps * 10).rounded() / 10)),
        ])
    }

    static func text(_ s: IngestSummary) -> [String] {
        let list: ([(String, Int)]) -> String = { $0.map { "\($0.0) \($0.1)" }.joined(separator: ", ") }
        let mbps = s.seconds > 0 ? Double(s.bytes) / 1e6 / s.seconds : 0
        var lines = [
            "ingest: \(s.captures) captures: " + list(counts(s.outcomes, outcomeOrder)),
            "integrity: " + list(counts(s.integrity, integrityOrder)),
            "sidecars: " + list(counts(s.sidecars, sidecarOrder)),
        ]
        if s.itemErrors > 0 { lines.append("item errors: \(s.itemErrors)") }
        if !s.pathErrors.isEmpty { lines.append("path errors: \(s.pathErrors.count)") }
        if !s.walk.isEmpty { lines.append("walk problems: \(s.walk.count) (entries not read or not entered)") }
        lines.append(String(format: "%d new blobs, %llu bytes read in %.2f s (%.1f MB/s); %d need attention",
                            s.newBlobs, s.bytes, s.seconds, mbps, s.attention))
        return lines
    }
}
