import Archive
import Crypto
import Custody
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
