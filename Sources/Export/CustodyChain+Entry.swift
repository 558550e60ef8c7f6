import Custody
import Ingest

extension CustodyChain {
    /// One event of the chain excerpt: shipped whole, or (v2 only) redacted to the values its
    /// hash is computed from.
    ///
    /// JSON: a whole event is the `CustodyEvent` object (`seq, version, time, eventType,
    /// operator, tool, host, objects, outcome, outcomeDetail, salt?, prevHash, hash`) plus
    /// `"redacted": false` and, for an event about none of the exported records that could not
    /// be redacted (v1), a `note` saying why. A redacted event is
    /// `{"seq", "version": 2, "prevHash", "bodyHash", "hash", "redacted": true}`. In an
    /// `exhibit-custody-chain/1` excerpt every entry is a whole v1 event without `redacted`.
    public enum Entry: Codable, Sendable, Equatable {
        case whole(CustodyEvent, note: String? = nil)
        case redacted(Redacted)

        /// What a redacted v2 event still shows: its place in the chain and its hashes.
        public struct Redacted: Codable, Sendable, Equatable {
            public var seq: UInt64
            public var version: CustodyEvent.Version
            public var prevHash: String
            /// SHA-256 of the event's salted body (`CustodyEvent.bodyBytes()`), lowercase hex.
            public var bodyHash: String
            public var hash: String
            public init(seq: UInt64, version: CustodyEvent.Version, prevHash: String, bodyHash: String, hash: String) {
                self.seq = seq
                self.version = version
                self.prevHash = prevHash
                self.bodyHash = bodyHash
                self.hash = hash
            }
        }

        public var seq: UInt64 {
            switch self {
            case .whole(let e, _): e.seq
            case .redacted(let r): r.seq
            }
        }

        public var version: CustodyEvent.Version {
            switch self {
            case .whole(let e, _): e.version
            case .redacted(let r): r.version
            }
        }

        public var prevHash: String {
            switch self {
            case .whole(let e, _): e.prevHash
            case .redacted(let r): r.prevHash
            }
        }

        public var hash: String {
            switch self {
            case .whole(let e, _): e.hash
            case .redacted(let r): r.hash
            }
        }

        /// The whole event; nil when redacted.
        public var event: CustodyEvent? {
            if case .whole(let e, _) = self { return e }
            return nil
        }

        public var isRedacted: Bool { event == nil }

        enum Keys: String, CodingKey { case redacted, note }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            if try c.decodeIfPresent(Bool.self, forKey: .redacted) == true {
                self = .redacted(try Redacted(from: decoder))
            } else {
                self = .whole(try CustodyEvent(from: decoder), note: try c.decodeIfPresent(String.self, forKey: .note))
            }
        }

        /// Encodes the /2 form (`redacted` on every entry).
        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .whole(let e, let note):
                try e.encode(to: encoder)
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(false, forKey: .redacted)
                try c.encodeIfPresent(note, forKey: .note)
            case .redacted(let r):
                try r.encode(to: encoder)
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(true, forKey: .redacted)
            }
        }
    }
}
