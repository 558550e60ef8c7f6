import Crypto
import Foundation
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
        OptionSpec("trust", value: "pem", help: "Signer trust anchors (PEM certificates)."),
        OptionSpec("tsa-trust", value: "pem", help: "Timestamp authority trust anchors (PEM certificates)."),
    ]
    static let arguments = [ArgumentSpec("path", help: "Media files, capture folders or dumps.", variadic: true)]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        guard !args.positionals.isEmpty else { throw UsageError("verify needs at least one PATH", command: name) }
        let verifier = CaptureVerifier(signerAnchors: try anchors(args.value("trust"), option: "trust"),
                                       tsaAnchors: try anchors(args.value("tsa-trust"), option: "tsa-trust"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var attention = false
        for path in args.positionals {
            let reports: [CaptureReport]
            do {
                reports = try CaptureVerifier.discover(path).map { verifier.verify($0) }
            } catch {
                var r = CaptureReport(path: path, kind: "unknown", integrity: .malformed, timestamp: .init(state: "absent"))
                r.error = .init(code: error.code, message: error.message)
                reports = [r]
            }
            if reports.isEmpty { context.console.err("verify: no capture found under \(path)") }
            for r in reports {
                attention = attention || r.needsAttention || r.error != nil
                if context.json {
                    let data = try encoder.encode(r)
                    context.console.out(String(decoding: data, as: UTF8.self))
                } else {
                    context.console.writeOut(Array(VerifyCommand.text(r).utf8))
                }
            }
        }
        return attention ? .failure : .success
    }

    static func anchors(_ path: String?, option: String) throws -> TrustAnchors {
        guard let path else { return .none }
        do { return try TrustAnchors(pemFile: path) } catch {
            throw UsageError("--\(option): cannot read trust anchors from \(path): \(error)", command: name)
        }
    }
}
