import Archive
import Custody
import Ingest
import Query

/// `audit [--sample FRACTION]`: re-hashes blobs, lists damaged or missing chunks by blob; then
/// re-hashes every record (its stored body and report) and lists the damaged ones.
struct AuditCommand: Command {
    static let name = "audit"
    static let abstract = "Re-hash every blob (or a random sample) and list damage by blob."
    static let discussion = """
    Text output: one line per problem, 'damaged <blob> missing-chunk <index> <chunk-id>',
    'damaged <blob> damaged-chunk <index> <chunk-id>' or 'damaged <blob> problem <text>', then
    'audit: checked <n> of <m> blobs, <bytes> bytes, <d> damaged'; then every record's stored
    body and report are re-hashed and every blob it names is looked up (always all records):
    'damaged record <record-id> report <report-id|-> <code>: <detail>' per damaged record or
    missing blob (index.record.blobMissing), then 'audit: checked <n> records, <d> damaged'
    (when the archive has records). JSON: one {"type":"damage",...} line per
    damaged blob, one {"type":"recordDamage",...} line per damaged record, then
    {"type":"summary",...} (with "records" and "recordsDamaged" when the archive has
    records). Exit 1 if any blob or record is damaged. Blobs in S3 (init --blobs): every blob
    the archive's ledger lists is fetched and re-hashed; an object deleted or overwritten
    behind the archive's back is 'damaged <blob> problem s3.notFound: …' or
    'damaged <blob> problem s3.integrity.mismatch: …'.
    """
    static let options = [OptionSpec("sample", value: "fraction", help: "Check a random fraction (0 to 1) of the blobs.")]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let sample = try args.double("sample", in: 0...1) ?? 1
        let archive = try context.openArchive(access: .readIfNotWritable)
        let bar = ProgressBar(console: context.console, items: 0, bytes: 0)
        if bar.isShown, let totals = try? archive.blobs.totals() {
            bar.setTotal(items: Int((Double(totals.blobs) * sample).rounded(.up)), bytes: UInt64(Double(totals.bytes) * sample))
        }
        // LMDB's audit names chunks; S3's fetches every object its ledger lists (BlobStore.audit).
        let report = try archive.blobs.audit(sample: sample) { blobs, bytes in bar.update(items: blobs, bytes: bytes) }
        var recordAudit = try QueryCommand.queryErrors { try archive.records.audit() }
        recordAudit.damaged += try QueryCommand.queryErrors { try missingBlobs(in: archive) }
        recordAudit.damaged.sort { ($0.recordId.hex, "\($0.error)") < ($1.recordId.hex, "\($1.error)") }
        let recordsDamaged = Set(recordAudit.damaged.map(\.recordId)).count
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
        for d in recordAudit.damaged {
            if context.json {
                c.json(.object([("type", .string("recordDamage")), ("recordId", .string(d.recordId.hex)),
                                ("reportId", d.reportId.map { .string($0.hex) } ?? .null),
                                ("code", .string(d.error.statusCode)), ("detail", .string("\(d.error)"))]))
            } else {
                c.out("damaged record \(d.recordId.hex) report \(d.reportId?.hex ?? "-") \(d.error)")
            }
        }
        if context.json {
            c.json(.object([("type", .string("summary")), ("blobs", .int(Int64(report.blobsInStore))),
                            ("checked", .int(Int64(report.blobsChecked))), ("bytes", .int(Int64(report.bytesChecked))),
                            ("damaged", .int(Int64(report.damaged.count)))]
                           + (recordAudit.checked > 0 ? [("records", .int(Int64(recordAudit.checked))),
                                                         ("recordsDamaged", .int(Int64(recordsDamaged)))] : [])))
        } else {
            c.out("audit: checked \(report.blobsChecked) of \(report.blobsInStore) blobs, \(report.bytesChecked) bytes, \(report.damaged.count) damaged")
            if recordAudit.checked > 0 { c.out("audit: checked \(recordAudit.checked) records, \(recordsDamaged) damaged") }
        }
        if archive.isReadOnly {
            c.err("audit: the archive is opened read-only; this fixity check is not logged in the custody log")
        } else {
            do { try logFixityCheck(report, recordAudit, sample: sample, custody: archive.custodyStore, context) } catch {
                c.err("Warning: the audit could not be logged in the custody log: \(error)")
            }
        }
        return report.isClean && recordAudit.damaged.isEmpty ? .success : .failure
    }

    /// Appends the audit as a PREMIS `fixity check` event (objects: the damaged records and blobs).
    static func logFixityCheck(_ report: AuditReport, _ records: RecordAudit, sample: Double, custody: any CustodyStore,
                               _ context: CommandContext) throws {
        let agent = CustodyAgent.current(operator: nil, environment: context.environment)
        let detail = "audit\(sample < 1 ? " (sample \(sample))" : ""): checked \(report.blobsChecked) of \(report.blobsInStore) blobs, "
            + "\(report.bytesChecked) bytes, \(report.damaged.count) damaged; \(records.checked) records, \(Set(records.damaged.map(\.recordId)).count) damaged"
        try custody.append(drafts: [CustodyDraft(.fixityCheck, agent: agent,
                                                 objects: uniqueRecords(records.damaged).map { .record($0) } + report.damaged.map { .blob($0.blob) },
                                                 outcome: report.isClean && records.damaged.isEmpty ? .success : .failure, detail: detail)])
    }
}
