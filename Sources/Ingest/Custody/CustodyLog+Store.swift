import Archive
import Crypto
import Foundation
import Ground
import LMDB

/// LMDB's custody log as the archive's `CustodyStore`: the same `custody.*` databases and
/// bytes, each call its own transaction (`append(_:in:)` remains for a caller's transaction).
extension CustodyLog: CustodyStore {
    @discardableResult
    public func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try environment.write { txn in try events.map { try append($0, in: txn) } }
    }

    /// Appends one event built by `event.make` for the next seq and the head's hash, in `txn`.
    @discardableResult
    public func append(_ event: CustodyAppend, in txn: Transaction) throws -> StoredCustodyEvent {
        let head = try self.head(in: txn)
        let prevHash = Hex.decode(head.hash) ?? []
        let seq = head.seq + 1
        let (stored, hash) = try event.make(seq, prevHash)
        guard hash.count == 32, stored.count > 32, stored.suffix(32).elementsEqual(hash) else {
            throw CustodyError.malformedEvent("event \(seq): stored bytes must end in its 32-byte hash")
        }
        let key = Self.key(seq)
        _ = try txn.put(events, key, stored, flags: .noOverwrite)
        for id in Set(event.objects) {
            _ = try txn.put(objects, Array(id.utf8) + [0] + key, [UInt8](), flags: [])
        }
        _ = try txn.put(meta, Self.headKey, key + hash, flags: [])
        return StoredCustodyEvent(seq: seq, prevHash: prevHash, hash: hash, stored: stored)
    }

    public func head() throws -> CustodyHead {
        let head = try environment.read { txn in try self.head(in: txn) }
        return CustodyHead(seq: head.seq, hash: Hex.decode(head.hash) ?? CustodyHead.empty.hash)
    }

    public func storedEvents(after: UInt64, limit: Int) throws -> [StoredCustodyEvent] {
        try environment.read { txn in try storedEvents(after: after, limit: limit, in: txn) }
    }

    public func storedEvents(forObject objectId: String) throws -> [StoredCustodyEvent] {
        try environment.read { txn in try storedEvents(forObject: objectId, in: txn) }
    }

    /// A stored event of `custody.events`; its previous hash read from the canonical bytes.
    /// Bytes that do not parse are handed back as stored, with an empty previous hash: `event`
    /// then throws, and `verifyChain` names the entry as `log --verify` always has (changed).
    static func stored(seq: UInt64, value: UnsafeRawBufferPointer) -> StoredCustodyEvent {
        let prevHash = (try? CustodyEvent(stored: value)).flatMap { Hex.decode($0.prevHash) } ?? []
        return StoredCustodyEvent(seq: seq, prevHash: prevHash, hash: Array(value.suffix(32)), stored: Array(value))
    }
}

extension CustodyAppend {
    /// The event `draft` becomes, built in `version` (`CustodyLog.version(for:)`) once the store
    /// gives it its seq and previous hash. The time (the draft's, else now) and the salt are
    /// fixed here, so a retried transaction builds the same event.
    public init(_ draft: CustodyDraft, version: CustodyEvent.Version) throws {
        let time = CustodyLog.timestamp(draft.time ?? Date())
        let salt = version.isRedactable ? Hex.encode(try SecureRandom.bytes(CustodyEvent.saltBytes)) : nil
        self.init(objects: draft.objects.map(\.id)) { seq, prevHash in
            let event = CustodyEvent(draft, seq: seq, time: time, prevHash: Hex.encode(prevHash), version: version, salt: salt)
            return (event.storedBytes(), Hex.decode(event.hash) ?? [])
        }
    }
}

extension CustodyEvent {
    /// `draft` as event `seq` after `prevHash`, hashed.
    init(_ draft: CustodyDraft, seq: UInt64, time: String, prevHash: String, version: Version, salt: String?) {
        self.init(seq: seq, time: time, eventType: draft.eventType, operator: draft.agent.operator, tool: draft.agent.tool,
                  host: draft.agent.host, objects: draft.objects, outcome: draft.outcome, outcomeDetail: draft.outcomeDetail,
                  prevHash: prevHash, hash: "", version: version, salt: salt,
                  organization: version == .v3 ? (draft.agent.organization ?? "") : nil)
        hash = computedHash()
    }
}

extension CustodyStore {
    /// Appends the drafts in order in one transaction (v2, or v3 for an agent that states an
    /// organization: `CustodyLog.version(for:)`'s rule, and a `CustodyLog`'s own writer
    /// version) and returns the events.
    @discardableResult
    public func append(drafts: [CustodyDraft]) throws -> [CustodyEvent] {
        try append(try appends(drafts)).map { try $0.event }
    }

    /// The drafts as appends in this store's writer version (`append(drafts:)`'s rule), for a
    /// caller appending them in a transaction of its own (`RecordWriter.append`).
    public func appends(_ drafts: [CustodyDraft]) throws -> [CustodyAppend] {
        let log = self as? CustodyLog
        return try drafts.map { draft in
            try CustodyAppend(draft, version: log?.version(for: draft) ?? CustodyStoreVersion.version(for: draft))
        }
    }

    /// Every event in seq order (events that do not parse are skipped; `verifyChain` names them).
    public func custodyEvents() throws -> [CustodyEvent] {
        try allStoredEvents().compactMap { try? $0.event }
    }

    /// The events naming `objectId`, in seq order.
    public func custodyEvents(forObject objectId: String) throws -> [CustodyEvent] {
        try storedEvents(forObject: objectId).map { try $0.event }
    }

    /// Walks the whole chain as `log --verify` does (`CustodyLog.verify`): every event re-hashed
    /// from its canonical bytes, every link and the head checked; names what is changed,
    /// removed or inserted. The head and the events are separate reads: when the head moved
    /// while the events were read (another process appended), the walk reads both again (up to
    /// 5 times), so an append in progress is not taken for a broken tail.
    public func verifyChain() throws -> CustodyVerification {
        var head = try self.head()
        var stored = try allStoredEvents()
        for _ in 0..<5 {
            let now = try self.head()
            if now == head { break }
            head = now
            stored = try allStoredEvents()
        }
        let entries = stored.map { s -> CustodyVerification.Entry in
            guard let e = try? s.event else { return .init(key: s.seq, event: nil, selfConsistent: false) }
            return .init(key: s.seq, event: e, selfConsistent: e.computedHash() == e.hash && Hex.decode(e.hash) == s.hash)
        }
        return CustodyVerification.walk(entries, head: (head.seq, Hex.encode(head.hash)), problems: [])
    }
}

/// The version rule of an appended event, for any store: v3 when the agent states an
/// organization, else v2 (`CustodyLog.version(for:)` with its default writer).
enum CustodyStoreVersion {
    static func version(for draft: CustodyDraft) -> CustodyEvent.Version {
        (draft.agent.organization ?? "").isEmpty ? .v2 : .v3
    }
}

extension StoredCustodyEvent {
    /// The event its stored bytes hold (`custody.malformedEvent` when they do not parse).
    public var event: CustodyEvent {
        get throws { try stored.withUnsafeBytes { try CustodyEvent(stored: $0) } }
    }
}
