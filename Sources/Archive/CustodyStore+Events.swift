import Crypto
import Custody
import Foundation
import Ground

extension CustodyStore {
    /// Appends the drafts in order in one transaction, each in the store's writer version
    /// (`version(for:)`: v2, or v3 for an agent that states an organization), and returns the events.
    @discardableResult
    public func append(drafts: [CustodyDraft]) throws -> [CustodyEvent] {
        try append(try appends(drafts)).map { try $0.event }
    }

    /// The drafts as appends in this store's writer version (`append(drafts:)`'s rule), for a
    /// caller appending them in a transaction of its own (`RecordWriter.append`).
    public func appends(_ drafts: [CustodyDraft]) throws -> [CustodyAppend] {
        try drafts.map { draft in try CustodyAppend(draft, version: version(for: draft)) }
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

extension StoredCustodyEvent {
    /// The event its stored bytes hold (`custody.malformedEvent` when they do not parse).
    public var event: CustodyEvent {
        get throws { try stored.withUnsafeBytes { try CustodyEvent(stored: $0) } }
    }
}
