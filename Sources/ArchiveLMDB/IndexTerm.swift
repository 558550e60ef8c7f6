import Foundation
import Ground
import LMDB
import Query

/// One prefix scan of one secondary index. Every term selects each record at most once (a
/// record has one fingerprint, one capture time, one "some sink in state S" entry, …), so the
/// number of keys a term scans is the number of records it selects.
struct IndexTerm: Hashable, Sendable {
    let index: IndexEntry.Index
    let prefix: [UInt8]
    /// Keys under `prefix` are exactly `prefix + recordId`: they come in ID order and
    /// membership of one ID is a point lookup.
    let exact: Bool

    /// Every record ID the term selects, ascending.
    func collect(_ db: Database, in txn: Transaction) throws -> [ContentID] {
        var out: [ContentID] = []
        let want = prefix.count + 32
        try forEachKey(db, in: txn) { key in
            if !exact || key.count == want, let id = ContentID(suffixOf: key) { out.append(id) }
            return .next
        }
        if !exact { out.sort() }
        return out
    }

    /// The first `limit` record IDs the term selects, ascending, for an exact term: its keys
    /// come in ID order, so the scan stops after `limit` keys (`limit` cursor steps, however
    /// many records the term selects). `others` (exact terms too) must also select each ID:
    /// one point lookup per candidate and term. Callers pass exact terms only.
    func first(_ limit: Int, _ db: Database, alsoIn others: [(IndexTerm, Database)],
               in txn: Transaction) throws -> [ContentID] {
        var out: [ContentID] = []
        guard limit > 0 else { return out }
        let want = prefix.count + 32
        try forEachKey(db, in: txn) { key in
            guard key.count == want, let id = ContentID(suffixOf: key) else { return .next }
            for (t, tdb) in others where try !t.selects(id, tdb, in: txn) { return .next }
            out.append(id)
            return out.count >= limit ? .stop : .next
        }
        return out
    }

    /// Whether the exact term selects `id` (one point lookup).
    func selects(_ id: ContentID, _ db: Database, in txn: Transaction) throws -> Bool {
        try !filter([id], db, in: txn).isEmpty
    }

    /// Visits every key (at least 32 bytes past the prefix) that starts with `prefix`, in key
    /// order: one cursor seek, then `next` with a `memcmp` of the prefix per key, until `body`
    /// says `.stop`.
    func forEachKey(_ db: Database, in txn: Transaction, _ body: (UnsafeRawBufferPointer) throws -> ScanStep) throws {
        let cursor = try txn.cursor(db)
        try prefix.withUnsafeBytes { p in
            guard let pBase = p.baseAddress else { return }
            var entry = try cursor.seek(atLeast: p)
            while let (k, _) = entry {
                guard k.count >= p.count + 32, let kBase = k.baseAddress, memcmp(kBase, pBase, p.count) == 0 else {
                    // A shorter key under the prefix cannot be ours; a different prefix ends the range.
                    if k.count >= p.count, let kBase = k.baseAddress, memcmp(kBase, pBase, p.count) == 0 {
                        entry = try cursor.next()
                        continue
                    }
                    return
                }
                if try body(k) == .stop { return }
                entry = try cursor.next()
            }
        }
    }

    /// The IDs of `ids` the term selects (exact terms only): one point lookup each, the key
    /// built in one reused buffer.
    func filter(_ ids: [ContentID], _ db: Database, in txn: Transaction) throws -> [ContentID] {
        var key = prefix + [UInt8](repeating: 0, count: 32)
        let base = prefix.count
        var out: [ContentID] = []
        for id in ids {
            key.withUnsafeMutableBytes { k in id.store(into: k, at: base) }
            if try key.withUnsafeBytes({ try txn.get(db, $0) }) != nil { out.append(id) }
        }
        return out
    }
}

extension Array where Element == ContentID {
    /// The IDs in both ascending arrays.
    func intersection(sorted other: [ContentID]) -> [ContentID] {
        var out: [ContentID] = []
        out.reserveCapacity(Swift.min(count, other.count))
        var i = 0, j = 0
        while i < count && j < other.count {
            if self[i] < other[j] { i += 1 } else if other[j] < self[i] { j += 1 } else {
                out.append(self[i]); i += 1; j += 1
            }
        }
        return out
    }
}
