import Archive
import Export
import Ingest

/// `gc`: removes chunks no blob references (left by killed puts), and what killed exports and
/// reverify runs left behind.
struct GCCommand: Command {
    static let name = "gc"
    static let abstract = "Remove chunks left unreferenced by interrupted puts."
    static let discussion = """
    Chunks: does nothing while a put is running in a live process or when a blob record is
    damaged. Staging folders of killed exports (.<DIR>.export-<pid>.partial, from the archive's
    export journal): removed when their replication event never committed, moved to <DIR> when
    it did. Stale $TMPDIR/exhibit-reverify-<pid>-* folders of dead processes: removed.
    Blobs in S3 (init --blobs): objects under PREFIX/blobs/ that the archive's blob ledger does
    not list (uploaded by an ingest or put killed before its commit) are deleted, unless another
    live process is staging; every unfinished multipart upload is aborted. Text: 'gc: s3 removed
    <n> objects, <bytes> bytes, <u> aborted uploads[, <r> kept by retention][, <m> staging
    marks cleared]'; JSON adds s3ObjectsRemoved, s3BytesRemoved, s3ObjectsRetained,
    s3UploadsAborted, s3PendingCleared (staging marks of dead processes or expired ones,
    removed), s3SkippedBusy.
    """

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let archive = try context.openArchive()
        let r = try archive.administration.collectGarbage()
        let s3 = try archive.blobs.collectObjectGarbage()
        let exports = ExportRecovery.run(journal: try archive.exportJournal(), custody: StoredCustodySource(archive.custodyStore))
        let reverify = ReverifyScratch.removeStale()
        func count(_ k: ExportRecovery.Action.Kind) -> Int64 { Int64(exports.filter { $0.kind == k }.count) }
        let c = context.console
        if context.json {
            c.json(.object([("chunksRemoved", .int(Int64(r.chunksRemoved))),
                            ("bytesRemoved", .int(Int64(r.bytesRemoved))),
                            ("pendingCleared", .int(Int64(r.pendingCleared))),
                            ("skippedBusy", .bool(r.skippedBusy)), ("skippedDamaged", .bool(r.skippedDamaged)),
                            ("exportsRemoved", .int(count(.removed))), ("exportsCompleted", .int(count(.completed))),
                            ("exportsKept", .int(count(.kept))), ("reverifyFoldersRemoved", .int(Int64(reverify.count)))]
                           + (s3.map { s in [("s3ObjectsRemoved", .int(Int64(s.objectsRemoved))), ("s3BytesRemoved", .int(Int64(s.bytesRemoved))),
                                             ("s3ObjectsRetained", .int(Int64(s.objectsRetained))), ("s3UploadsAborted", .int(Int64(s.uploadsAborted))),
                                             ("s3PendingCleared", .int(Int64(s.pendingCleared))), ("s3SkippedBusy", .bool(s.skippedBusy))] } ?? [])))
        } else {
            if r.skippedBusy {
                c.out("gc: skipped, a put is running")
            } else if r.skippedDamaged {
                c.out("gc: skipped, a blob record is damaged (run audit)")
            } else {
                c.out("gc: removed \(r.chunksRemoved) chunks, \(r.bytesRemoved) bytes, \(r.pendingCleared) interrupted puts")
            }
            if let s = s3 {
                if s.skippedBusy {
                    c.out("gc: s3 skipped, another process is staging blobs")
                } else {
                    c.out("gc: s3 removed \(s.objectsRemoved) objects, \(s.bytesRemoved) bytes, \(s.uploadsAborted) aborted uploads"
                          + (s.objectsRetained > 0 ? ", \(s.objectsRetained) kept by retention" : "")
                          + (s.pendingCleared > 0 ? ", \(s.pendingCleared) staging marks cleared" : ""))
                }
            }
            for a in exports { c.out("gc: \(a.kind.rawValue) export staging folder \(a.staging) (process \(a.pid)): \(a.detail)") }
            for f in reverify { c.out("gc: removed reverify folder \(f.path) (process \(f.pid))") }
        }
        return r.skippedDamaged || exports.contains { $0.kind == .kept } ? .failure : .success
    }
}
