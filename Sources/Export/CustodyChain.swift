import Crypto
import Ingest

/// The part of the archive's hash-chained custody log that an export ships: every event from
/// the earliest event naming an exported record up to the log head (the export's own
/// `replication` event), so a reader can recompute the chain from each record's events to the
/// head without trusting the archive.
///
/// Chain rule (the custody log's own, docs/ingest.md): each event's `hash` is SHA-256 of its
/// canonical bytes (`CustodyEvent.canonicalBytes()`: length-prefixed UTF-8 fields, `prevHash`
/// among them), and its `prevHash` is the `hash` of the event before it. Because `prevHash` is
/// inside the hashed bytes, every event of the span is shipped whole: the span therefore also
/// shows the other events logged between a record's first event and the export.
public struct CustodyChain: Codable, Sendable, Equatable {
    public static let format = "exhibit-custody-chain/1"

    public var format: String
    /// Consecutive events, oldest first, ending at the head.
    public var events: [CustodyEvent]
    /// Sequence and hash of the log head when the export was made.
    public var headSequence: UInt64
    public var headHash: String

    public init(events: [CustodyEvent], headSequence: UInt64, headHash: String) {
        self.format = Self.format
        self.events = events
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

    /// Recomputes every event's hash from its canonical bytes, each `prevHash` against the
    /// hash before it, consecutive sequences, and the last hash against the head.
    public func check() -> [Problem] {
        var problems: [Problem] = []
        guard format == Self.format else {
            return [Problem(code: "custody.unknownFormat", sequence: nil, detail: "chain format \(format.debugDescription)")]
        }
        guard let last = events.last else {
            return [Problem(code: "custody.empty", sequence: nil, detail: "the custody chain has no events")]
        }
        var previous: CustodyEvent?
        for event in events {
            let recomputed = event.computedHash()
            if recomputed != event.hash {
                problems.append(Problem(code: "custody.eventTampered", sequence: event.seq,
                                        detail: "custody event \(event.seq) (\(event.eventType.rawValue)) hashes to \(recomputed), the chain says \(event.hash)"))
            }
            if let previous {
                if event.seq != previous.seq + 1 {
                    problems.append(Problem(code: "custody.sequenceGap", sequence: event.seq,
                                            detail: "custody event \(event.seq) follows event \(previous.seq)"))
                }
                if event.prevHash != previous.hash {
                    problems.append(Problem(code: "custody.chainBroken", sequence: event.seq,
                                            detail: "custody event \(event.seq) does not point at event \(previous.seq)'s hash"))
                }
            } else if event.seq == 1, event.prevHash != CustodyEvent.genesisHash {
                problems.append(Problem(code: "custody.chainBroken", sequence: 1,
                                        detail: "the first custody event does not start from the genesis hash"))
            }
            previous = event
        }
        if last.seq != headSequence || last.hash != headHash {
            problems.append(Problem(code: "custody.headMismatch", sequence: last.seq,
                                    detail: "the chain ends at event \(last.seq) (\(last.hash)), the head is \(headSequence) (\(headHash))"))
        }
        return problems
    }

    /// Sequences of the events that name `objectId`.
    public func sequences(naming objectId: String) -> [UInt64] {
        events.filter { $0.objects.contains { $0.id == objectId } }.map(\.seq)
    }
}
