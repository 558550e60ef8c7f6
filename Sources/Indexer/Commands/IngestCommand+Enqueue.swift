import Archive
import Foundation
import Ingest
import Verify

/// `ingest --enqueue DUMP…`: every capture of the dumps as a job of the archive's work queue
/// (docs/postgres.md "Work queue commands"), for `worker` processes on any machine to ingest.
extension IngestCommand {
    /// The options that decide how a capture is ingested: the workers' (`worker`), not the
    /// enqueuer's, so they are refused beside `--enqueue`.
    static let workerOnlyOptions = ["jobs", "trust", "tsa-trust", "operator", "organization", "no-media", "defer-media"]

    static func enqueue(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        for flag in workerOnlyOptions where args.value(flag) != nil || args.flag(flag) {
            throw UsageError("--\(flag) is the worker's: give it to 'exhibit-archive worker', not to 'ingest --enqueue'", command: name)
        }
        let queue = try context.workQueue(command: name)
        let (captures, pathErrors, walkProblems) = Ingestor.walk(args.positionals)
        let c = context.console
        for e in pathErrors { c.err("Error: \(e)") }
        for p in walkProblems { c.err(WalkProblemOutput.text(p)) }
        var added = 0, requeued = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for start in stride(from: 0, to: captures.count, by: 10_000) {
            let jobs = try captures[start..<min(start + 10_000, captures.count)].map { location in
                (key: jobKey(location), payload: String(decoding: try encoder.encode(location), as: UTF8.self))
            }
            // A capture whose job failed is pending again (its attempts reset): enqueueing after
            // the cause is mended (a mount, a server) retries exactly the failed ones.
            let n = try queue.enqueue(jobs, maxAttempts: WorkJob.defaultMaxAttempts, retryFailed: true)
            added += n.added
            requeued += n.requeued
        }
        let clean = pathErrors.isEmpty && walkProblems.isEmpty
        if context.json {
            c.json(.object([("type", .string("enqueue")), ("captures", .int(Int64(captures.count))), ("added", .int(Int64(added))),
                            ("requeued", .int(Int64(requeued))), ("alreadyQueued", .int(Int64(captures.count - added - requeued))),
                            ("pathErrors", .array(pathErrors.map { .string($0) })), ("walk", .array(walkProblems.map(WalkProblemOutput.json))),
                            ("schema", .string(queue.namespace))]))
        } else {
            c.out("enqueue: \(captures.count) captures: \(added) added, \(requeued) failed requeued, \(captures.count - added - requeued) already queued")
            if !pathErrors.isEmpty { c.out("path errors: \(pathErrors.count)") }
            if !walkProblems.isEmpty { c.out("walk problems: \(walkProblems.count) (entries not read or not entered)") }
        }
        return clean ? .success : .failure
    }

    /// A capture's job key: its dump root, `//`, and its delivery file relative to that root
    /// (`/mnt/dumps/d1//captures/c-0001/capture.jpg`). Paths are absolute and normalised, so
    /// `//` only ever separates the two; the same capture enqueued again has the same key.
    static func jobKey(_ location: CaptureLocation) -> String {
        let root = location.dumpRoot.hasSuffix("/") ? String(location.dumpRoot.dropLast()) : location.dumpRoot
        let file = location.deliveryFile
        let relative = file.hasPrefix(root + "/") ? String(file.dropFirst(root.count + 1)) : file
        return root + "//" + relative
    }
}
