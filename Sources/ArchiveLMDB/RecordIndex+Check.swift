import LMDB
import Query

extension RecordIndex {
    /// Recounts every index from its keys and compares with `idx.counts`; returns one line per
    /// disagreement (`count <tag><value>: stored N, entries M`), empty when they agree. A full
    /// scan of every index: for audits and tests, not for queries.
    public func checkCounters() throws -> [String] {
        try QueryError.wrapping {
            try environment.read { txn in
                var expected: [[UInt8]: Int] = [:]
                for index in IndexEntry.Index.allCases where hasIndex(index) {
                    try txn.scan(database(index)) { key, _ in
                        guard key.count > 32 else { return .next }
                        let part = Array(key.prefix(key.count - 32))
                        expected[[index.tag] + part, default: 0] += 1
                        if index == .time {
                            let time = part.dropLast()   // the value without its NUL
                            for n in IndexCounters.rungLengths where n <= time.count {
                                expected[[IndexCounters.timePrefixTag] + time.prefix(n), default: 0] += 1
                            }
                        }
                        return .next
                    }
                }
                var problems: [String] = []
                var seen = Set<[UInt8]>()
                try txn.scan(counts) { key, _ in
                    let k = Array(key)
                    seen.insert(k)
                    let stored = try IndexCounters.read(k, counts, in: txn)
                    let want = expected[k] ?? 0
                    if stored != want { problems.append("count \(Self.printable(k)): stored \(stored), entries \(want)") }
                    return .next
                }
                for (k, want) in expected where !seen.contains(k) {
                    problems.append("count \(Self.printable(k)): stored 0, entries \(want)")
                }
                return problems.sorted()
            }
        }
    }

    /// A counter key as text (NUL shown as `|`).
    static func printable(_ key: [UInt8]) -> String {
        String(decoding: key.map { $0 == 0 ? 0x7c : $0 }, as: UTF8.self)
    }
}
