import Export

/// `verify-export DIR`: checks a bag made by `export`, without the archive.
struct VerifyExportCommand: Command {
    static let name = "verify-export"
    static let abstract = "Check an exported bag: completeness, hashes, signature, custody chain."
    static let discussion = """
    Checks that the bag is complete (every manifest entry present, nothing unlisted), every
    payload and tag file against every manifest and tag manifest of any BagIt algorithm
    (sha256, sha512, … as bagit-python writes them), Payload-Oxum, the COSE_Sign1 signature over custody.json
    with the certificate shipped in the bag, custody.json's file list against the manifest,
    and the custody chain from each record's events to the log head. Names each problem
    (bag.payloadChanged, bag.tagFileChanged, bag.payloadMissing, bag.payloadUnlisted,
    custody.eventTampered, signature.invalid, …). A valid signature proves custody.json was
    signed by the key in archive-cert.pem; whether that key is the archive's must be
    confirmed out of band (compare the printed fingerprint). Exit 1 on any problem.
    """
    static let usesArchive = false
    static let arguments = [ArgumentSpec("dir", help: "The bag directory.", completion: .directory)]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        guard args.positionals.count == 1 else { throw UsageError("give one bag directory", command: name) }
        var verifier = BagVerifier(bag: args.positionals[0])
        let bar = ProgressBar(console: context.console, items: 0, bytes: 0)
        verifier.progress = { files, bytes, totalFiles, totalBytes in
            bar.setTotal(items: totalFiles, bytes: totalBytes)
            bar.update(items: files, bytes: bytes)
        }
        let r = verifier.verify()
        bar.finish()
        let c = context.console
        if context.json {
            c.json(.object([
                ("bag", .string(r.bag)), ("valid", .bool(r.isValid)),
                ("payloadFiles", .int(Int64(r.payloadFiles))), ("payloadBytes", .int(Int64(r.payloadBytes))),
                ("tagFiles", .int(Int64(r.tagFiles))), ("records", .int(Int64(r.records))),
                ("custodyEvents", .int(Int64(r.custodyEvents))),
                ("redactedCustodyEvents", .int(Int64(r.redactedCustodyEvents))),
                ("signingKey", r.keyFingerprint.map { .string($0) } ?? .null),
                ("manifestAlgorithms", .array(r.manifestAlgorithms.map { .string($0) })),
                ("findings", .array(r.findings.map { f in
                    .object([("code", .string(f.code)), ("path", f.path.map { .string($0) } ?? .null),
                             ("sequence", f.sequence.map { .int(Int64($0)) } ?? .null), ("detail", .string(f.detail))])
                })),
            ]))
        } else {
            for f in r.findings { c.out("FAIL \(f.code)\(f.path.map { " \($0)" } ?? ""): \(f.detail)") }
            c.out("\(r.payloadFiles) payload file(s), \(r.payloadBytes) bytes, \(r.tagFiles) tag file(s), "
                + "\(r.records) record(s), \(r.custodyEvents) custody event(s) (\(r.redactedCustodyEvents) redacted)")
            c.out("manifests checked: " + (r.manifestAlgorithms.isEmpty ? "none" : r.manifestAlgorithms.joined(separator: ", ")))
            if let fp = r.keyFingerprint {
                c.out("custody.json signed by key \(fp) (confirm this fingerprint with the archive out of band)")
            }
            c.out(r.isValid ? "bag valid" : "bag INVALID: \(r.findings.count) problem(s)")
        }
        return r.isValid ? .success : .failure
    }
}
