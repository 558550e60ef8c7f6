import Crypto
import Custody
import Foundation
import LMDB

/// The archive's hash-chained custody log, in the archive's own LMDB environment.
///
/// Databases:
/// - `custody.events`  — seq (u64 BE) → canonical event bytes ‖ 32-byte hash (v1 or v2, the
///   first field says which; `CustodyEvent+Canonical.swift`).
/// - `custody.objects` — object ID (UTF-8) ‖ 0x00 ‖ seq (u64 BE) → empty: events by record/blob/anchor.
/// - `custody.meta`    — `head` → seq (u64 BE) ‖ hash (32 B) of the last event.
///
/// Events are appended inside the caller's write transaction, so an event commits together
/// with the change it describes (an ingest's record, blobs and events: all or nothing).
/// `append` only reads and writes inside that transaction, so it is re-runnable when
/// `Environment.write` retries after growing the map.
public final class CustodyLog: Sendable {
    public let environment: Environment
    let events: Database
    let objects: Database
    let meta: Database
    /// The format `append` writes: v2 (redactable), or v3 (v2 plus the organization) for an
    /// agent that states one (`version(for:)`); `.v1` writes v1 (old archives, tests); `.v3`
    /// always v3. Existing events keep the version they were written with; a log may mix all.
    public let eventVersion: CustodyEvent.Version
    static let headKey = Array("head".utf8)

    /// Opens the log's databases, creating them unless the environment is read-only.
    /// Call outside any transaction (creating a database is itself a write transaction).
    /// `eventVersion` `.v1` writes events as archives made before v2 hold them (tests of mixed
    /// chains, reproducing old archives); the archive itself always appends v2.
    public init(environment: Environment, eventVersion: CustodyEvent.Version = .v2) throws {
        self.environment = environment
        self.eventVersion = eventVersion
        do {
            events = try environment.openOrCreate("custody.events")
            objects = try environment.openOrCreate("custody.objects")
            meta = try environment.openOrCreate("custody.meta")
        } catch let e as LMDBError where e == .notFound {
            throw CustodyError.notInitialised
        }
    }

    // MARK: Append

    /// Appends one event in `txn` and returns it with its seq and hashes.
    @discardableResult
    public func append(_ draft: CustodyDraft, in txn: Transaction) throws -> CustodyEvent {
        let head = try self.head(in: txn)
        let version = version(for: draft)
        let event = CustodyEvent(draft, seq: head.seq + 1, time: CustodyEvent.timestamp(draft.time ?? Date()), prevHash: head.hash,
                                 version: version,
                                 salt: version.isRedactable ? Hex.encode(try SecureRandom.bytes(CustodyEvent.saltBytes)) : nil)
        let key = Self.key(event.seq)
        _ = try txn.put(events, key, event.storedBytes(), flags: .noOverwrite)
        for id in Set(draft.objects.map(\.id)) {
            _ = try txn.put(objects, Array(id.utf8) + [0] + key, [UInt8](), flags: [])
        }
        _ = try txn.put(meta, Self.headKey, key + (Hex.decode(event.hash) ?? []), flags: [])
        return event
    }

    /// The version an appended event gets: v1 from a v1 writer; otherwise v3 when the agent
    /// states an organization (v3 is v2 with that field), else v2, byte for byte as before.
    public func version(for draft: CustodyDraft) -> CustodyEvent.Version {
        if eventVersion == .v1 { return .v1 }
        if eventVersion == .v3 { return .v3 }
        return CustodyStoreVersion.version(for: draft)
    }

    /// Appends several events in `txn`, in order.
    @discardableResult
    public func append(_ drafts: [CustodyDraft], in txn: Transaction) throws -> [CustodyEvent] {
        try drafts.map { try append($0, in: txn) }
    }

    /// The last event's seq and hash (0 and the genesis hash for an empty log).
    public func head(in txn: Transaction) throws -> (seq: UInt64, hash: String) {
        guard let raw = try txn.value(meta, Self.headKey) else { return (0, CustodyEvent.genesisHash) }
        guard raw.count == 40 else { throw CustodyError.malformedEvent("custody.meta head has \(raw.count) bytes") }
        return (Self.seq(raw[0..<8]), Hex.encode(raw[8..<40]))
    }

    // MARK: Read

    /// Every event in seq order (events that do not parse are skipped; `verify` names them).
    public func allEvents() throws -> [CustodyEvent] {
        try environment.read { txn in try allEvents(in: txn) }
    }

    public func allEvents(in txn: Transaction) throws -> [CustodyEvent] {
        var out: [CustodyEvent] = []
        try txn.scan(events) { _, value in
            if let e = try? CustodyEvent(stored: value) { out.append(e) }
            return .next
        }
        return out
    }

    /// Events naming `objectId` (a record ID, blob ID or anchor fingerprint), in seq order.
    public func events(forObject objectId: String) throws -> [CustodyEvent] {
        try environment.read { txn in try events(forObject: objectId, in: txn) }
    }

    public func events(forObject objectId: String, in txn: Transaction) throws -> [CustodyEvent] {
        try eventKeys(forObject: objectId, in: txn).compactMap { key in
            try txn.withValue(events, key) { raw in try raw.map { try CustodyEvent(stored: $0) } }
        }
    }

    /// The `custody.events` keys (seq, u64 BE) of the events naming `objectId`, in seq order.
    func eventKeys(forObject objectId: String, in txn: Transaction) throws -> [[UInt8]] {
        var seqs: [[UInt8]] = []
        let prefix = Array(objectId.utf8) + [0]
        try txn.scan(objects, prefix: prefix) { key, _ in
            if key.count == prefix.count + 8 { seqs.append(Array(key[prefix.count...])) }
            return .next
        }
        return seqs
    }

    // MARK: Helpers

    static func key(_ seq: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: seq >> UInt64(56 - 8 * $0)) } }

    static func seq<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
