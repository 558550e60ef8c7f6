import Crypto
import Custody
import Ground
import Ingest

/// The part of the archive's hash-chained custody log that an export ships: every event from
/// the earliest event naming an exported record up to the log head (the export's own
/// `replication` event), so a reader can recompute the chain from each record's events to the
/// head without trusting the archive.
///
/// Chain rule (the custody log's own, docs/ingest.md): each event's `prevHash` is the `hash`
/// of the event before it. A v1 event's `hash` is SHA-256 of its canonical bytes (every field,
/// `prevHash` among them), so it can only be shipped whole. A v2 event's `hash` is SHA-256 of
/// (`"exhibit-custody/2"`, seq, prevHash, bodyHash) with `bodyHash` the SHA-256 of its salted
/// body, so an event about none of the exported records ships redacted to seq, prevHash,
/// bodyHash and hash and still links (format `exhibit-custody-chain/2`); a v3 event (v2 with
/// the organization, hashed under `"exhibit-custody/3"`) likewise, in the same format.
/// `exhibit-custody-chain/1` excerpts (every event whole, v1) still check.
public struct CustodyChain: Codable, Sendable, Equatable {
    public static let format = "exhibit-custody-chain/2"
    /// The first format: every event of the span whole, v1 only.
    public static let formatV1 = "exhibit-custody-chain/1"

    public var format: String
    /// Consecutive events, oldest first, ending at the head.
    public var events: [Entry]
    /// Sequence and hash of the log head when the export was made.
    public var headSequence: UInt64
    public var headHash: String

    /// An excerpt of whole events (redact with `redacting(keeping:)`).
    public init(events: [CustodyEvent], headSequence: UInt64, headHash: String) {
        self.init(entries: events.map { .whole($0) }, headSequence: headSequence, headHash: headHash)
    }

    public init(entries: [Entry], headSequence: UInt64, headHash: String, format: String = Self.format) {
        self.format = format
        self.events = entries
        self.headSequence = headSequence
        self.headHash = headHash
    }

    /// One problem found while recomputing the chain.
    public struct Problem: Equatable, Sendable {
        /// `custody.eventTampered`, `custody.chainBroken`, `custody.headMismatch`,
        /// `custody.sequenceGap`, `custody.unknownFormat`, `custody.empty`.
        public var code: String
        public var sequence: UInt64?
        public var detail: String
    }

    /// Recomputes every event's hash (a whole event from its fields, a redacted one from its
    /// seq, prevHash and bodyHash), each `prevHash` against the hash before it, consecutive
    /// sequences, and the last hash against the head.
    public func check() -> [Problem] {
        var problems: [Problem] = []
        guard format == Self.format || format == Self.formatV1 else {
            return [Problem(code: StatusCode.custodyUnknownFormat, sequence: nil, detail: "chain format \(format.debugDescription)")]
        }
        guard let last = events.last else {
            return [Problem(code: StatusCode.custodyEmpty, sequence: nil, detail: "the custody chain has no events")]
        }
        var previous: Entry?
        for entry in events {
            if let detail = hashProblem(entry) {
                problems.append(Problem(code: StatusCode.custodyEventTampered, sequence: entry.seq, detail: detail))
            }
            if let previous {
                if entry.seq != previous.seq + 1 {
                    problems.append(Problem(code: StatusCode.custodySequenceGap, sequence: entry.seq,
                                            detail: "custody event \(entry.seq) follows event \(previous.seq)"))
                }
                if entry.prevHash != previous.hash {
                    problems.append(Problem(code: StatusCode.custodyChainBroken, sequence: entry.seq,
                                            detail: "custody event \(entry.seq) does not point at event \(previous.seq)'s hash"))
                }
            } else if entry.seq == 1, entry.prevHash != CustodyEvent.genesisHash {
                problems.append(Problem(code: StatusCode.custodyChainBroken, sequence: 1,
                                        detail: "the first custody event does not start from the genesis hash"))
            }
            previous = entry
        }
        if last.seq != headSequence || last.hash != headHash {
            problems.append(Problem(code: StatusCode.custodyHeadMismatch, sequence: last.seq,
                                    detail: "the chain ends at event \(last.seq) (\(last.hash)), the head is \(headSequence) (\(headHash))"))
        }
        return problems
    }

    /// Why `entry` does not hash to its `hash`, or nil when it does.
    func hashProblem(_ entry: Entry) -> String? {
        switch entry {
        case .whole(let e, _):
            if format == Self.formatV1, e.version != .v1 {
                return "custody event \(e.seq) is a v\(e.version.rawValue) event in an \(Self.formatV1) chain"
            }
            let recomputed = e.computedHash()
            guard recomputed != e.hash else { return nil }
            return "custody event \(e.seq) (\(e.eventType.rawValue)) hashes to \(recomputed), the chain says \(e.hash)"
        case .redacted(let r):
            guard format == Self.format else { return "custody event \(r.seq) is redacted in an \(Self.formatV1) chain" }
            guard r.version.isRedactable else {
                return "custody event \(r.seq) is a redacted v\(r.version.rawValue) event: only v2 and v3 events can be redacted"
            }
            guard r.bodyHash.utf8.count == 64, Hex.decode(r.bodyHash).map(Hex.encode) == r.bodyHash else {
                return "redacted custody event \(r.seq) has a malformed bodyHash"
            }
            let recomputed = Hex.encode(MessageDigest.sha256(
                CustodyEvent.hashedBytes(r.version, seq: r.seq, prevHash: r.prevHash, bodyHash: r.bodyHash)))
            guard recomputed != r.hash else { return nil }
            return "redacted custody event \(r.seq) hashes to \(recomputed) from its seq, prevHash and bodyHash, the chain says \(r.hash)"
        }
    }

    /// Sequences of the whole events that name `objectId`.
    public func sequences(naming objectId: String) -> [UInt64] {
        events.compactMap(\.event).filter { $0.objects.contains { $0.id == objectId } }.map(\.seq)
    }

    /// The whole event at `seq`, nil when absent or redacted.
    public func event(_ seq: UInt64) -> CustodyEvent? {
        events.first { $0.seq == seq }?.event
    }
}
