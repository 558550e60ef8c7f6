import Crypto
import Foundation
import Ground
import Synchronization
import Verify

/// `verify PATH... [--trust PEM] [--tsa-trust PEM] [--json]`: checks captures in place and
/// stores nothing.
struct VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Check captures in place: C2PA, the signed record, sidecars, bundles."
    static let discussion = """
    PATH is a media file, a capture folder (captures/<id>/) or a dump; each capture found is
    checked: the C2PA manifest (integrity intact/tampered/unsigned/malformed, signer trust,
    timestamp), the app's signed record (capture time, context facts), every sidecar
    (verified, mismatch, missing, uncommitted, failed, never-recorded), unreferenced evidence
    files, disclosure bundles against the signed context-tree root, and the streamed-chunk
    commitment. Facts only: no output says a capture is real or fake. Symlinks are never
    followed. Nothing is stored.

    --json prints one report object per capture per line (see docs/verify.md). Exit 1 if any
    capture is not intact, has a sidecar mismatch or missing, or could not be read (the run
    goes on); 2 for a usage error.
    """
    static let usesArchive = false
    static let options = [
        OptionSpec("trust", value: "pem", help: "Signer trust anchors (PEM certificates).", completion: .file),
        OptionSpec("tsa-trust", value: "pem", help: "Timestamp authority trust anchors (PEM certificates).", completion: .file),
        OptionSpec("jobs", value: "n", help: "Captures verified in parallel (default: the number of CPUs)."),
        OptionSpec("no-media", help: "Skip the libav media measurements (facts, parallax, chunk recomputation)."),
    ]
    static let arguments = [ArgumentSpec("path", help: "Media files, capture folders or dumps.", variadic: true, completion: .file)]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try FileLimitSetting.check(context, command: name)
        guard !args.positionals.isEmpty else { throw UsageError("verify needs at least one PATH", command: name) }
        var verifier = CaptureVerifier(signerAnchors: try anchors(args.value("trust"), option: "trust"),
                                       tsaAnchors: try anchors(args.value("tsa-trust"), option: "tsa-trust"))
        verifier.measuresMedia = !args.flag("no-media")
        let jobs = try jobCount(args.value("jobs"))
        var attention = false
        for path in args.positionals {
            let locations: [CaptureLocation]
            do {
                let found = try CaptureVerifier.walk(path)
                locations = found.captures
                for p in found.problems {
                    // Every entry the walk did not read or enter: reported, and the exit is 1.
                    attention = true
                    if context.json { context.console.json(WalkProblemOutput.json(p)) } else { context.console.err(WalkProblemOutput.text(p)) }
                }
            } catch {
                var r = CaptureReport(path: path, kind: .unknown, integrity: .malformed, timestamp: .init(state: "absent"))
                r.error = .init(code: error.code, message: error.message)
                attention = true
                emit(r, context)
                continue
            }
            if locations.isEmpty { context.console.err("verify: no capture found under \(path)") }
            let bar = ProgressBar(console: context.console, items: locations.count, bytes: 0)
            // Batches verified in parallel, printed in discovery order.
            let batch = max(1, jobs * 8)
            for start in stride(from: 0, to: locations.count, by: batch) {
                let slice = Array(locations[start..<min(locations.count, start + batch)])
                for r in verify(slice, with: verifier, jobs: jobs) {
                    attention = attention || r.needsAttention || r.error != nil
                    bar.advance(items: 1, bytes: r.files.reduce(0) { $0 + $1.size })
                    emit(r, context)
                }
            }
            bar.finish()
        }
        return attention ? .failure : .success
    }

    static func emit(_ r: CaptureReport, _ context: CommandContext) {
        if context.json {
            context.console.jsonLine(String(decoding: r.jsonBytes(), as: UTF8.self))
        } else {
            context.console.lines(text(r))
        }
    }

    /// Verifies `locations` on up to `jobs` threads; results in input order.
    static func verify(_ locations: [CaptureLocation], with verifier: CaptureVerifier, jobs: Int) -> [CaptureReport] {
        guard jobs > 1, locations.count > 1 else { return locations.map { verifier.verifyWalked($0) } }
        let results = Locked<[Int: CaptureReport]>([:])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, locations.count)) { _ in
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < locations.count else { return }
                let r = verifier.verifyWalked(locations[i])
                results.withLock { $0[i] = r }
            }
        }
        return results.withLock { done in locations.indices.compactMap { done[$0] } }
    }

    static func jobCount(_ value: String?) throws -> Int {
        guard let value else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        guard let n = Int(value), (1...256).contains(n) else { throw UsageError("--jobs must be 1…256", command: name) }
        return n
    }

    static func anchors(_ path: String?, option: String) throws -> TrustAnchors {
        guard let path else { return .none }
        do { return try TrustAnchors(pemFile: path) } catch {
            throw UsageError("--\(option): cannot read trust anchors from \(path): \(error)", command: name)
        }
    }
}
