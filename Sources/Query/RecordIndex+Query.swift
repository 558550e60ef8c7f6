import Foundation
import LMDB

extension RecordIndex {
    /// The records `filter` selects. Each filter is a prefix scan of its index; filters
    /// combine by intersecting sorted ID sets (or, for a small candidate set, by point lookups
    /// in an exact index). No record body is decoded.
    public func query(_ filter: RecordFilter) throws -> QueryResult {
        try QueryError.wrapping { try environment.read { try query(filter, in: $0) } }
    }

    public func query(_ filter: RecordFilter, in txn: Transaction) throws -> QueryResult {
        let (m, i) = try evaluate(filter, in: txn)
        return QueryResult(matches: m.map(\.hex), indeterminate: i.map(\.hex))
    }

    /// How many records `filter` selects. A single filter reads the entry counts
    /// (`idx.counts`: one lookup, or a scan of distinct values for a prefix); several filters
    /// intersect ID sets. Nothing decodes a record body.
    public func count(_ filter: RecordFilter) throws -> QueryCount {
        try QueryError.wrapping { try environment.read { try count(filter, in: $0) } }
    }

    public func count(_ filter: RecordFilter, in txn: Transaction) throws -> QueryCount {
        let plan = try QueryPlan(filter)
        if plan.terms.isEmpty { return QueryCount(matches: try txn.count(records), indeterminate: 0) }
        if plan.terms.count == 1 {
            var indeterminate = 0
            for u in plan.indeterminate { indeterminate += try IndexCounters.count(u, counts, in: txn) }
            return QueryCount(matches: try IndexCounters.count(plan.terms[0], counts, in: txn), indeterminate: indeterminate)
        }
        let (m, i) = try evaluate(filter, in: txn)
        return QueryCount(matches: m.count, indeterminate: i.count)
    }

    /// The records with these IDs, in the same order (absent IDs are skipped).
    public func records(_ ids: [String]) throws -> [IndexedRecord] {
        try QueryError.wrapping {
            try environment.read { txn in
                let decoder = JSONDecoder()
                return try ids.compactMap { hex in
                    guard let id = RecordID(hex: hex) else { throw QueryError.invalidRecordId(hex) }
                    return try get(id, in: txn, decoder: decoder)
                }
            }
        }
    }

    func evaluate(_ filter: RecordFilter, in txn: Transaction) throws -> (matches: [RecordID], indeterminate: [RecordID]) {
        let plan = try QueryPlan(filter)
        guard !plan.terms.isEmpty else {
            var all: [RecordID] = []
            try txn.scan(records) { key, _ in
                if key.count == 32, let id = RecordID(suffixOf: key) { all.append(id) }
                return .next
            }
            return (all, [])
        }
        // Order the terms by how many records each selects (from idx.counts where that is a
        // lookup or a short scan); a term that selects nothing empties the answer at once.
        let total = try txn.count(records)
        var sizes: [IndexTerm: Int] = [:]
        for t in plan.terms where t.exact || t.index == .key || (t.index == .time && IndexCounters.rungLengths.contains(t.prefix.count)) {
            sizes[t] = try IndexCounters.count(t, counts, in: txn)
        }
        let ordered = plan.terms.enumerated().sorted { a, b in
            (sizes[a.element] ?? total, a.offset) < (sizes[b.element] ?? total, b.offset)
        }.map(\.element)
        let emptyFilter = plan.terms.contains { $0.index != .time && sizes[$0] == 0 }
        if emptyFilter { return ([], []) }
        var cache: [IndexTerm: [RecordID]] = [:]
        func collect(_ t: IndexTerm) throws -> [RecordID] {
            if let c = cache[t] { return c }
            let ids = try t.collect(database(t.index), in: txn)
            cache[t] = ids
            return ids
        }
        func narrow(_ ids: [RecordID], by t: IndexTerm) throws -> [RecordID] {
            if ids.isEmpty { return ids }
            // A point lookup (one B-tree descent) costs about as much as two cursor steps here.
            if t.exact && cache[t] == nil && ids.count * 2 < (sizes[t] ?? total) {
                return try t.filter(ids, database(t.index), in: txn)
            }
            return ids.intersection(sorted: try collect(t))
        }
        var matches = sizes[ordered[0]] == 0 ? [] : try collect(ordered[0])
        for t in ordered.dropFirst() { matches = try narrow(matches, by: t) }
        var indeterminate: [RecordID] = []
        if !plan.indeterminate.isEmpty {
            for t in plan.indeterminate { indeterminate += try t.collect(database(t.index), in: txn) }
            indeterminate.sort()
            for t in ordered where t.index != .time { indeterminate = try narrow(indeterminate, by: t) }
        }
        return (matches, indeterminate)
    }
}

/// The index terms of a filter (in a fixed order: fingerprint, sidecar, time, trust, kind,
/// integrity, ingest time; `evaluate` reorders them by size), and the exact-time terms whose
/// records are indeterminate.
struct QueryPlan {
    var terms: [IndexTerm] = []
    var indeterminate: [IndexTerm] = []

    init(_ f: RecordFilter) throws {
        func value(_ name: String, _ v: String) throws -> String {
            guard !v.isEmpty, !v.utf8.contains(0) else { throw QueryError.invalidField(name: name, value: v) }
            return v
        }
        if let k = f.keyPrefix {
            guard !k.isEmpty, k.utf8.allSatisfy({ RecordID.nibble($0) != nil }) else {
                throw QueryError.invalidField(name: "keyPrefix", value: k)
            }
            // A full SHA-256 fingerprint is an exact key part; anything shorter is a prefix.
            terms.append(k.utf8.count == 64 ? IndexTerm(index: .key, prefix: IndexEntry.prefix([k]), exact: true)
                                            : IndexTerm(index: .key, prefix: Array(k.utf8), exact: false))
        }
        if let s = f.sidecarState {
            terms.append(IndexTerm(index: .sidecar, prefix: IndexEntry.prefix([try value("sidecarState", s), try f.sink.map { try value("sink", $0) } ?? ""]), exact: true))
        } else if let sink = f.sink {
            terms.append(IndexTerm(index: .sidecar, prefix: IndexEntry.prefix(["", try value("sink", sink)]), exact: true))
        }
        if let t = f.timePrefix {
            let p = Array(try value("timePrefix", t).utf8)
            terms.append(IndexTerm(index: .time, prefix: p, exact: false))
            // A record known only as a strict prefix of `t` (a coarser rung containing it).
            for n in 1..<p.count { indeterminate.append(IndexTerm(index: .time, prefix: Array(p[0..<n]) + [0], exact: true)) }
        }
        if let v = f.trust { terms.append(IndexTerm(index: .trust, prefix: IndexEntry.prefix([try value("trust", v)]), exact: true)) }
        if let v = f.kind { terms.append(IndexTerm(index: .kind, prefix: IndexEntry.prefix([try value("kind", v)]), exact: true)) }
        if let v = f.integrity { terms.append(IndexTerm(index: .integrity, prefix: IndexEntry.prefix([try value("integrity", v)]), exact: true)) }
        if let v = f.ingestPrefix { terms.append(IndexTerm(index: .ingest, prefix: Array(try value("ingestPrefix", v).utf8), exact: false)) }
    }
}
