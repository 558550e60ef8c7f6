import Foundation
import Ground

/// One entry of the archive's custody log: what happened to which objects, when, by whom and
/// with what result, chained to the entry before it by hash.
///
/// Event types are the PREMIS event-type vocabulary terms
/// (<http://id.loc.gov/vocabulary/preservation/eventType>); see docs/ingest.md for the exact
/// bytes `hash` is computed over. Version 1 hashes every field directly; version 2 hashes
/// `seq`, `prevHash` and the SHA-256 of a salted body, so an event can be shown redacted to
/// those three values and still be checked (`CustodyEvent+Canonical.swift`).
public struct CustodyEvent: Codable, Sendable, Equatable {
    /// Position in the log, from 1, without gaps.
    public var seq: UInt64
    /// ISO 8601 UTC with milliseconds (`2026-12-01T03:04:05.678Z`).
    public var time: String
    /// PREMIS event type label (`ingestion`, `fixity check`, …).
    public var eventType: EventType
    /// Who ran it (`--operator`, else the login name).
    public var `operator`: String
    public var tool: Tool
    public var host: String
    /// The objects the event is about: records, blobs, trust anchors.
    public var objects: [Object]
    /// `success`, `failure` or `warning`.
    public var outcome: Outcome
    /// Free text detail of the outcome (state, counts, error codes).
    public var outcomeDetail: String
    /// `hash` of the previous event, lowercase hex; 64 zeros for the first event.
    public var prevHash: String
    /// v1: SHA-256 of `canonicalBytes()`; v2: SHA-256 of `hashedBytes()` (seq, prevHash,
    /// bodyHash). Lowercase hex.
    public var hash: String
    /// The hashing rule the event was written with (absent in JSON of v1-only writers: 1).
    public var version: Version = .v1
    /// v2 and v3: 16 random bytes (32 lowercase hex) inside the hashed body, so that a redacted
    /// event's `bodyHash` cannot be brute-forced from guessable fields.
    public var salt: String?
    /// v3 only: the organization the operator acted for (PREMIS agent "for whom"; empty when
    /// not stated). nil for v1 and v2 events, which have no such field.
    public var organization: String?

    /// The custody log format of one event.
    public enum Version: Int, Codable, Sendable, Comparable {
        /// `hash` = SHA-256 of every field (docs/ingest.md, "v1").
        case v1 = 1
        /// `hash` = SHA-256 of seq, prevHash and the salted body's SHA-256 (docs/ingest.md, "v2").
        case v2 = 2
        /// v2 with the organization in the body (docs/ingest.md, "v3").
        case v3 = 3
        /// Whether the event has a salted body and can be shipped redacted.
        public var isRedactable: Bool { self >= .v2 }
        public static func < (a: Version, b: Version) -> Bool { a.rawValue < b.rawValue }
    }

    enum CodingKeys: String, CodingKey {
        case seq, time, eventType, `operator`, organization, tool, host, objects, outcome, outcomeDetail, prevHash, hash, version, salt
    }

    /// Decodes an event; `version` defaults to 1 (JSON written before v2 existed has none).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seq = try c.decode(UInt64.self, forKey: .seq)
        time = try c.decode(String.self, forKey: .time)
        eventType = try c.decode(EventType.self, forKey: .eventType)
        `operator` = try c.decode(String.self, forKey: .operator)
        tool = try c.decode(Tool.self, forKey: .tool)
        host = try c.decode(String.self, forKey: .host)
        objects = try c.decode([Object].self, forKey: .objects)
        outcome = try c.decode(Outcome.self, forKey: .outcome)
        outcomeDetail = try c.decode(String.self, forKey: .outcomeDetail)
        prevHash = try c.decode(String.self, forKey: .prevHash)
        hash = try c.decode(String.self, forKey: .hash)
        version = try c.decodeIfPresent(Version.self, forKey: .version) ?? .v1
        salt = try c.decodeIfPresent(String.self, forKey: .salt)
        organization = try c.decodeIfPresent(String.self, forKey: .organization)
    }

    public init(seq: UInt64, time: String, eventType: EventType, operator: String, tool: Tool, host: String,
         objects: [Object], outcome: Outcome, outcomeDetail: String, prevHash: String, hash: String,
         version: Version = .v1, salt: String? = nil, organization: String? = nil) {
        self.seq = seq
        self.time = time
        self.eventType = eventType
        self.operator = `operator`
        self.tool = tool
        self.host = host
        self.objects = objects
        self.outcome = outcome
        self.outcomeDetail = outcomeDetail
        self.prevHash = prevHash
        self.hash = hash
        self.version = version
        self.salt = salt
        self.organization = organization
    }

    /// PREMIS event types used by the archive (labels from id.loc.gov).
    public enum EventType: String, Codable, Sendable, CaseIterable {
        case ingestion = "ingestion"
        case messageDigestCalculation = "message digest calculation"
        case validation = "validation"
        case digitalSignatureValidation = "digital signature validation"
        case fixityCheck = "fixity check"
        case replication = "replication"
        /// An export: copies transmitted to a recipient outside the archive (a bag).
        case dissemination = "dissemination"
        /// The archive key signing an export's custody.json.
        case digitalSignatureGeneration = "digital signature generation"
        /// A change of the archive's own settings (trust anchors): PREMIS `metadata modification`.
        case metadataModification = "metadata modification"
        /// A record's media analyses made from its stored blobs (`analyze`): PREMIS `metadata extraction`.
        case metadataExtraction = "metadata extraction"

        /// The vocabulary URI of the term.
        public var uri: String {
            let code: String = switch self {
            case .ingestion: "ing"
            case .messageDigestCalculation: "mes"
            case .validation: "val"
            case .digitalSignatureValidation: "dig"
            case .fixityCheck: "fix"
            case .replication: "rep"
            case .dissemination: "dis"
            case .digitalSignatureGeneration: "dsg"
            case .metadataModification: "mem"
            case .metadataExtraction: "mee"
            }
            return "http://id.loc.gov/vocabulary/preservation/eventType/" + code
        }
    }

    public enum Outcome: String, Codable, Sendable {
        case success, failure, warning
    }

    /// The software that acted.
    public struct Tool: Codable, Sendable, Equatable, Hashable {
        public var name: String
        public var version: String
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// An object the event is about.
    public struct Object: Codable, Sendable, Equatable, Hashable {
        /// `record`, `blob`, `report` (SHA-256 of a stored verification report: the index keeps
        /// it under that ID), `anchor` (fingerprint of a trust anchor), `export`.
        public var kind: String
        /// Record ID, blob ID, certificate fingerprint (lowercase hex) or another identifier.
        public var id: String
        public init(kind: String, id: String) {
            self.kind = kind
            self.id = id
        }
        public static func record(_ id: ContentID) -> Object { Object(kind: "record", id: id.hex) }
        public static func blob(_ id: ContentID) -> Object { Object(kind: "blob", id: id.hex) }
        public static func report(_ id: ContentID) -> Object { Object(kind: "report", id: id.hex) }
        public static func anchor(_ id: String) -> Object { Object(kind: "anchor", id: id) }
    }

    /// The hash of "nothing before": 64 zeros.
    public static let genesisHash = String(repeating: "0", count: 64)
}

/// An event about to be appended: everything but its place in the chain.
public struct CustodyDraft: Sendable, Equatable {
    public var eventType: CustodyEvent.EventType
    public var agent: CustodyAgent
    public var objects: [CustodyEvent.Object]
    public var outcome: CustodyEvent.Outcome
    public var outcomeDetail: String
    /// Event time; nil = the time of `append`.
    public var time: Date?

    public init(_ eventType: CustodyEvent.EventType, agent: CustodyAgent, objects: [CustodyEvent.Object],
                outcome: CustodyEvent.Outcome = .success, detail: String = "", time: Date? = nil) {
        self.eventType = eventType
        self.agent = agent
        self.objects = objects
        self.outcome = outcome
        self.outcomeDetail = detail
        self.time = time
    }
}

/// Who and what acts, for whom: operator, tool and host, and the organization (PREMIS's
/// three agents: person, software, organization), the same for every event of one run.
public struct CustodyAgent: Sendable, Equatable {
    public var `operator`: String
    public var tool: CustodyEvent.Tool
    public var host: String
    /// For whom the operator acts (`--organization`, else `$EXHIBIT_ORGANIZATION`); written in
    /// v3 events only; nil or empty: not stated.
    public var organization: String?

    public init(operator: String, tool: CustodyEvent.Tool, host: String, organization: String? = nil) {
        self.operator = `operator`
        self.tool = tool
        self.host = host
        self.organization = organization
    }

    /// The archive's own tool name and version.
    public static let toolName = "exhibit-archive"
    public static let toolVersion = "0.5.0"

    /// This process: `operator` (or `$USER`/`$LOGNAME`, else the uid), this tool, the host name
    /// and the organization `organization` (or `$EXHIBIT_ORGANIZATION`; nil when neither).
    public static func current(operator name: String? = nil, organization: String? = nil,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> CustodyAgent {
        let candidates: [String?] = [name, environment["USER"], environment["LOGNAME"]]
        let op = candidates.compactMap { $0 }.first { !$0.isEmpty } ?? "uid:\(getuid())"
        let org = [organization, environment["EXHIBIT_ORGANIZATION"]].compactMap { $0 }.first { !$0.isEmpty }
        return CustodyAgent(operator: op, tool: .init(name: toolName, version: toolVersion),
                            host: ProcessInfo.processInfo.hostName, organization: org)
    }
}
