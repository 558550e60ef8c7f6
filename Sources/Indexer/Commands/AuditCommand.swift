import CAS
import Ingest

/// `audit [--sample FRACTION]`: re-hashes blobs, lists damaged or missing chunks by blob.
struct AuditCommand: Command {
    static let name = "audit"
    static let abstract = "Re-hash every blob (or a random sample) and list damage by blob."
    static let discussion = """
    Text output: one line per problem, 'damaged <blob> missing-chunk <index> <chunk-id>',
    'damaged <blob> damaged-chunk <index> <chunk-id>' or 'damaged <blob> problem <text>', then
    'audit: checked <n> of <m> blobs, <bytes> bytes, <d> damaged'. JSON: one
    {"type":"damage",...} line per damaged blob, then {"type":"summary",...}. Exit 1 if any
    blob is damaged.
    """
    static let options = [OptionSpec("sample", value: "fraction", help: "Check a random fraction (0 to 1) of the blobs.")]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let sample = try args.double("sample", in: 0...1) ?? 1
        let store = try context.openStore(access: .readIfNotWritable)
        let bar = ProgressBar(console: context.console, items: 0, bytes: 0)
        if bar.isShown, let s = try? store.stats() {
            bar.setTotal(items: Int((Double(s.blobs) * sample).rounded(.up)), bytes: UInt64(Double(s.logicalBytes) * sample))
        }
        let report = try store.audit(sample: sample) { blobs, bytes in bar.update(items: blobs, bytes: bytes) }
        bar.finish()
        let c = context.console
        for d in report.damaged {
            if context.json {
                let chunks: ([BlobDamage.Chunk]) -> JSONValue = { list in
                    .array(list.map { .object([("index", .int(Int64($0.index))), ("id", .string($0.id.hex))]) })
                }
                c.json(.object([("type", .string("damage")), ("blob", .string(d.blob.hex)),
                                ("missingChunks", chunks(d.missingChunks)), ("damagedChunks", chunks(d.damagedChunks)),
                                ("problems", .array(d.problems.map { .string($0) }))]))
            } else {
                for m in d.missingChunks { c.out("damaged \(d.blob.hex) missing-chunk \(m.index) \(m.id.hex)") }
                for m in d.damagedChunks { c.out("damaged \(d.blob.hex) damaged-chunk \(m.index) \(m.id.hex)") }
                for p in d.problems { c.out("damaged \(d.blob.hex) problem \(p)") }
            }
        }
        if context.json {
            c.json(.object([("type", .string("summary")), ("blobs", .int(Int64(report.blobsInStore))),
                            ("checked", .int(Int64(report.blobsChecked))), ("bytes", .int(Int64(report.bytesChecked))),
                            ("damaged", .int(Int64(report.damaged.count)))]))
        } else {
            c.out("audit: checked \(report.blobsChecked) of \(report.blobsInStore) blobs, \(report.bytesChecked) bytes, \(report.damaged.count) damaged")
        }
        if store.isReadOnly {
            c.err("audit: the archive is opened read-only; this fixity check is not logged in the custody log")
        } else {
            do { try logFixityCheck(report, sample: sample, store: store, context) } catch {
                c.err("Warning: the audit could not be logged in the custody log: \(error)")
            }
        }
        return report.isClean ? .success : .failure
    }

    /// Appends the audit as a PREMIS `fixity check` event (objects: the damaged blobs).
    static func logFixityCheck(_ report: AuditReport, sample: Double, store: ContentStore, _ context: CommandContext) throws {
        let custody = try CustodyLog(environment: store.environment)
        let agent = CustodyAgent.current(operator: nil, environment: context.environment)
        let detail = "audit\(sample < 1 ? " (sample \(sample))" : ""): checked \(report.blobsChecked) of \(report.blobsInStore) blobs, "
            + "\(report.bytesChecked) bytes, \(report.damaged.count) damaged"
        try store.environment.write { txn in
            _ = try custody.append(CustodyDraft(.fixityCheck, agent: agent, objects: report.damaged.map { .blob($0.blob) },
                                            outcome: report.isClean ? .success : .failure, detail: detail), in: txn)
        }
    }
}
