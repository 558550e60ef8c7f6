import Crypto

/// The part of the archive's hash-chained custody log that an export ships: every event from
/// the earliest event naming an exported record up to the log head (the export's own
/// `replication` event), so a reader can recompute the chain from each record's events to the
/// head without trusting the archive.
///
/// Chain rule (`exhibit-custody-chain/1`), for each link in sequence order:
///
///     bodySha256 = SHA-256(body)                         -- body: the event's canonical bytes
///     hash       = SHA-256(previousHash ‖ bodySha256)    -- both as 32 raw bytes
///
/// `previousHash` of a link is the `hash` of the link before it (64 zeros before the log's first
/// event). A link whose event concerns no exported record may omit `body` (its content stays in
/// the archive); its `bodySha256` still chains it. Events naming an exported record, and the
/// replication event, always carry `body`, so they are recomputed from their bytes.
public struct CustodyChain: Codable, Sendable, Equatable {
    public static let format = "exhibit-custody-chain/1"
    public static let genesis = String(repeating: "0", count: 64)

    public struct Link: Codable, Sendable, Equatable {
        public var sequence: UInt64
        public var previousHash: String
        public var bodySha256: String
        public var hash: String
        /// The event's canonical bytes (UTF-8 JSON text); nil for an event of another record.
        public var body: String?
        public init(sequence: UInt64, previousHash: String, bodySha256: String, hash: String, body: String?) {
            self.sequence = sequence
            self.previousHash = previousHash
            self.bodySha256 = bodySha256
            self.hash = hash
            self.body = body
        }
    }

    public var format: String
    public var links: [Link]
    /// Sequence and hash of the log head when the export was made.
    public var headSequence: UInt64
    public var headHash: String

    public init(links: [Link], headSequence: UInt64, headHash: String) {
        self.format = Self.format
        self.links = links
        self.headSequence = headSequence
        self.headHash = headHash
    }

    /// The link hash for `previous` and a body digest (both hex); nil when either is not 32-byte hex.
    public static func linkHash(previous: String, bodySha256: String) -> String? {
        guard let p = Hex.decode(previous), p.count == 32, let b = Hex.decode(bodySha256), b.count == 32 else { return nil }
        return Hex.encode(MessageDigest.sha256(p + b))
    }

    /// One problem found while recomputing the chain.
    public struct Problem: Equatable, Sendable {
        /// `custody.eventTampered`, `custody.chainBroken`, `custody.headMismatch`,
        /// `custody.sequenceGap`, `custody.unknownFormat`, `custody.empty`.
        public var code: String
        public var sequence: UInt64?
        public var detail: String
    }

    /// Recomputes every link: the body's digest, the link hash, each link's `previousHash`
    /// against the hash before it, consecutive sequences, and the last hash against the head.
    public func check() -> [Problem] {
        var problems: [Problem] = []
        guard format == Self.format else {
            return [Problem(code: "custody.unknownFormat", sequence: nil, detail: "chain format \(format.debugDescription)")]
        }
        guard let last = links.last else {
            return [Problem(code: "custody.empty", sequence: nil, detail: "the custody chain has no events")]
        }
        var previous: Link?
        for link in links {
            if let body = link.body {
                let digest = Hex.encode(MessageDigest.sha256(Array(body.utf8)))
                if digest != link.bodySha256 {
                    problems.append(Problem(code: "custody.eventTampered", sequence: link.sequence,
                                            detail: "event \(link.sequence): its bytes hash to \(digest), the chain says \(link.bodySha256)"))
                }
            }
            if Self.linkHash(previous: link.previousHash, bodySha256: link.bodySha256) != link.hash {
                problems.append(Problem(code: "custody.eventTampered", sequence: link.sequence,
                                        detail: "event \(link.sequence): its hash does not follow from its previous hash and body digest"))
            }
            if let previous {
                if link.sequence != previous.sequence + 1 {
                    problems.append(Problem(code: "custody.sequenceGap", sequence: link.sequence,
                                            detail: "event \(link.sequence) follows event \(previous.sequence)"))
                }
                if link.previousHash != previous.hash {
                    problems.append(Problem(code: "custody.chainBroken", sequence: link.sequence,
                                            detail: "event \(link.sequence) does not point at event \(previous.sequence)'s hash"))
                }
            }
            previous = link
        }
        if last.sequence != headSequence || last.hash != headHash {
            problems.append(Problem(code: "custody.headMismatch", sequence: last.sequence,
                                    detail: "the chain ends at event \(last.sequence) (\(last.hash)), the head is \(headSequence) (\(headHash))"))
        }
        return problems
    }
}
