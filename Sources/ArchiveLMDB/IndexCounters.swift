import LMDB
import Query

/// Entry counts kept beside the indexes in `idx.counts`, so that a one-filter count is one
/// lookup (or a short scan of distinct values) instead of a scan of every matching key.
///
/// Keys → u64 big-endian count (a key whose count falls to 0 is deleted):
/// - index tag (`K` key, `T` time, `I` integrity, `R` trust, `N` kind, `S` sidecar, `G` ingest)
///   followed by an index key without its record ID (`value 0x00`, `state 0x00 sink 0x00`):
///   how many records have that exact value;
/// - `P` followed by a capture-time prefix at a rung length (4, 7, 10, 13, 16, 19 characters):
///   how many records have a capture time starting with it (known at that rung or finer).
///
/// Counts change in the same transaction as the entries they count.
enum IndexCounters {
    static let timePrefixTag: UInt8 = 0x50   // P
    static let rungLengths = [4, 7, 10, 13, 16, 19]

    /// The counter increments one record contributes.
    static func contributions(_ entries: Set<IndexEntry>, captureTime: String?) -> [[UInt8]: Int] {
        var out: [[UInt8]: Int] = [:]
        for e in entries { out[e.countKey, default: 0] += 1 }
        if let t = captureTime.map({ Array($0.utf8) }) {
            for n in rungLengths where n <= t.count { out[[timePrefixTag] + t[0..<n], default: 0] += 1 }
        }
        return out
    }

    /// Applies `new − old` to the stored counts.
    static func apply(old: [[UInt8]: Int], new: [[UInt8]: Int], _ db: Database, in txn: Transaction) throws {
        for key in Set(old.keys).union(new.keys) {
            let delta = (new[key] ?? 0) - (old[key] ?? 0)
            if delta == 0 { continue }
            let value = max(0, try read(key, db, in: txn) + delta)
            if value == 0 {
                try txn.delete(db, key)
            } else {
                try txn.put(db, key, (0..<8).map { UInt8(truncatingIfNeeded: UInt64(value) >> UInt64(56 - 8 * $0)) })
            }
        }
    }

    static func read(_ key: [UInt8], _ db: Database, in txn: Transaction) throws -> Int {
        try txn.withValue(db, key) { v in
            guard let v, v.count == 8 else { return 0 }
            return Int(truncatingIfNeeded: v.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
    }

    /// The sum of every count whose key starts with `prefix`.
    static func sum(prefix: [UInt8], _ db: Database, in txn: Transaction) throws -> Int {
        var total = 0
        try txn.scan(db, prefix: prefix) { _, v in
            if v.count == 8 { total += Int(truncatingIfNeeded: v.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
            return .next
        }
        return total
    }

    /// The distinct index values (count keys without their tag) under `tag ‖ prefix`, at
    /// most `limit`: for a key-fingerprint prefix, the fingerprints (`fp 0x00`) it names.
    static func values(tag: UInt8, prefix: [UInt8], limit: Int, _ db: Database, in txn: Transaction) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        try txn.scan(db, prefix: [tag] + prefix) { k, _ in
            out.append(Array(k.dropFirst()))
            return out.count >= limit ? .stop : .next
        }
        return out
    }

    /// How many records `term` selects, from the counts alone.
    static func count(_ term: IndexTerm, _ db: Database, in txn: Transaction) throws -> Int {
        if term.exact { return try read([term.index.tag] + term.prefix, db, in: txn) }
        if term.index == .time && rungLengths.contains(term.prefix.count) {
            return try read([timePrefixTag] + term.prefix, db, in: txn)
        }
        return try sum(prefix: [term.index.tag] + term.prefix, db, in: txn)
    }
}
