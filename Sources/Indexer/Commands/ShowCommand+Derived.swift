import Query

extension ShowCommand {
    /// One line per derived blob (a thumbnail made at ingest), apart from the evidence:
    /// `derived <kind> <blob> <size> <w>x<h> <source-blob> <tool>`, or
    /// `derived <kind> none <source-blob> <finding>` when none could be made.
    static func derivedLines(_ r: IndexedRecord) -> [String] {
        (r.derived ?? []).map { d in
            if let blob = d.blobId {
                return "derived \(d.kind) \(blob) \(d.size ?? 0) \(d.width ?? 0)x\(d.height ?? 0) \(d.sourceBlobId) \(d.tool)"
            }
            return "derived \(d.kind) none \(d.sourceBlobId) \(d.finding ?? "not made")"
        }
    }
}
