import Ingest

extension CustodyChain {
    /// Why an event about none of the exported records still ships whole.
    public static let v1Note = "not about an exported record; shipped whole because it is a v1 event, "
        + "whose hash covers its fields directly and so cannot be checked redacted"

    /// The excerpt as an export ships it: events naming any of `objectIds` (the exported
    /// records) and the events at `sequences` (the export's own replication event) whole;
    /// every other v2 event redacted to seq, version, prevHash, bodyHash and hash; every other
    /// v1 event whole with `v1Note`. Hashes and links are unchanged, so `check()` holds for the
    /// result exactly when it holds for `self`.
    public func redacting(keepingEventsNaming objectIds: Set<String>, andSequences sequences: Set<UInt64>) -> CustodyChain {
        let entries = events.map { entry -> Entry in
            guard case .whole(let e, _) = entry else { return entry }
            if sequences.contains(e.seq) || e.objects.contains(where: { objectIds.contains($0.id) }) { return .whole(e) }
            guard e.version.isRedactable, let bodyHash = e.computedBodyHash() else { return .whole(e, note: Self.v1Note) }
            return .redacted(.init(seq: e.seq, version: e.version, prevHash: e.prevHash, bodyHash: bodyHash, hash: e.hash))
        }
        return CustodyChain(entries: entries, headSequence: headSequence, headHash: headHash, format: format)
    }

    /// Counts of the entries: whole, redacted, and whole only because they are v1.
    public var redactionCounts: (whole: Int, redacted: Int, unredactableV1: Int) {
        var out = (whole: 0, redacted: 0, unredactableV1: 0)
        for entry in events {
            switch entry {
            case .whole(_, let note):
                out.whole += 1
                if note != nil { out.unredactableV1 += 1 }
            case .redacted: out.redacted += 1
            }
        }
        return out
    }
}
