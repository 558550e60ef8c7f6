import Foundation
import Ground
import LMDB
import Query

extension RecordIndex {
    /// The records `filter` selects. Each filter is a prefix scan of its index; filters
    /// combine by intersecting sorted ID sets (or, for a small candidate set, by point lookups
    /// in an exact index). No record body is decoded.
    ///
    /// With `limit`, at most the first `limit` matches and the first `limit` indeterminate
    /// records (lowest IDs, as without it). When every filter is an exact index value (a full
    /// fingerprint, or a prefix naming one fingerprint; sidecar, trust, kind, integrity), the
    /// scan stops after `limit` answers, so "first 100 of a fingerprint's records" does not
    /// depend on how many records it has; otherwise the full answer is computed, then cut.
    public func query(_ filter: RecordFilter, limit: Int? = nil) throws -> QueryResult {
        try QueryError.wrapping { try environment.read { try query(filter, limit: limit, in: $0) } }
    }

    public func query(_ filter: RecordFilter, limit: Int? = nil, in txn: Transaction) throws -> QueryResult {
        if let limit, limit < 1 { throw QueryError.invalidField(name: "limit", value: String(limit)) }
        let (m, i) = try evaluate(filter, limit: limit, in: txn)
        let n = limit ?? Int.max
        return QueryResult(matches: Array(m.prefix(n)), indeterminate: Array(i.prefix(n)))
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
    public func records(_ ids: [ContentID]) throws -> [IndexedRecord] {
        try QueryError.wrapping {
            try environment.read { txn in
                let decoder = JSONDecoder()
                return try ids.compactMap { id in try get(id, in: txn, decoder: decoder) }
            }
        }
    }

    /// The sorted IDs `filter` selects. With `limit`, the lists may be longer than `limit`
    /// (the caller cuts them) but their first `limit` IDs are right.
    func evaluate(_ filter: RecordFilter, limit: Int? = nil, in txn: Transaction) throws -> (matches: [ContentID], indeterminate: [ContentID]) {
        let plan = try QueryPlan(filter)
        guard !plan.terms.isEmpty else {
            var all: [ContentID] = []
            try txn.scan(records) { key, _ in
                if let id = ContentID(key) { all.append(id) }
                return all.count >= (limit ?? Int.max) ? .stop : .next
            }
            return (all, [])
        }
        // A fingerprint prefix naming exactly one fingerprint (idx.counts has one `K fp 0x00`
        // under it) is that fingerprint, an exact term: IDs in order, point lookups possible.
        // One naming none selects nothing.
        var terms = plan.terms
        if terms.contains(where: { !hasIndex($0.index) }) { return ([], []) }
        for (n, t) in terms.enumerated() where t.index == .key && !t.exact {
            let fps = try IndexCounters.values(tag: t.index.tag, prefix: t.prefix, limit: 2, counts, in: txn)
            if fps.isEmpty { return ([], []) }
            if fps.count == 1 { terms[n] = IndexTerm(index: .key, prefix: fps[0], exact: true) }
        }
        // Order the terms by how many records each selects (from idx.counts where that is a
        // lookup or a short scan); a term that selects nothing empties the answer at once.
        let total = try txn.count(records)
        var sizes: [IndexTerm: Int] = [:]
        for t in terms where t.exact || t.index == .key || (t.index == .time && IndexCounters.rungLengths.contains(t.prefix.count)) {
            sizes[t] = try IndexCounters.count(t, counts, in: txn)
        }
        let ordered = terms.enumerated().sorted { a, b in
            (sizes[a.element] ?? total, a.offset) < (sizes[b.element] ?? total, b.offset)
        }.map(\.element)
        let emptyFilter = terms.contains { $0.index != .time && sizes[$0] == 0 }
        if emptyFilter { return ([], []) }
        // First `limit` only, every term exact (so no time term and nothing indeterminate):
        // walk the smallest term's keys in ID order, point-check the others, stop at `limit`.
        if let limit, ordered.allSatisfy(\.exact) {
            let others = ordered.dropFirst().map { ($0, database($0.index)) }
            return (try ordered[0].first(limit, database(ordered[0].index), alsoIn: others, in: txn), [])
        }
        var cache: [IndexTerm: [ContentID]] = [:]
        func collect(_ t: IndexTerm) throws -> [ContentID] {
            if let c = cache[t] { return c }
            let ids = try t.collect(database(t.index), in: txn)
            cache[t] = ids
            return ids
        }
        func narrow(_ ids: [ContentID], by t: IndexTerm) throws -> [ContentID] {
            if ids.isEmpty { return ids }
            // A point lookup (one B-tree descent) costs about as much as two cursor steps here.
            if t.exact && cache[t] == nil && ids.count * 2 < (sizes[t] ?? total) {
                return try t.filter(ids, database(t.index), in: txn)
            }
            return ids.intersection(sorted: try collect(t))
        }
        var matches = sizes[ordered[0]] == 0 ? [] : try collect(ordered[0])
        for t in ordered.dropFirst() { matches = try narrow(matches, by: t) }
        var indeterminate: [ContentID] = []
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
            guard !k.isEmpty, ContentID.isLowercaseHex(k) else {
                throw QueryError.invalidField(name: "keyPrefix", value: k)
            }
            // A full SHA-256 fingerprint is an exact key part; anything shorter is a prefix.
            terms.append(k.utf8.count == 64 ? IndexTerm(index: .key, prefix: IndexEntry.prefix([k]), exact: true)
                                            : IndexTerm(index: .key, prefix: Array(k.utf8), exact: false))
        }
        if let s = f.sidecarState {
            terms.append(IndexTerm(index: .sidecar, prefix: IndexEntry.prefix([s.rawValue, f.sink?.rawValue ?? ""]), exact: true))
        } else if let sink = f.sink {
            terms.append(IndexTerm(index: .sidecar, prefix: IndexEntry.prefix(["", sink.rawValue]), exact: true))
        }
        if let t = f.timePrefix {
            let p = Array(try value("timePrefix", t).utf8)
            terms.append(IndexTerm(index: .time, prefix: p, exact: false))
            // A record known only as a strict prefix of `t` (a coarser rung containing it).
            for n in 1..<p.count { indeterminate.append(IndexTerm(index: .time, prefix: Array(p[0..<n]) + [0], exact: true)) }
        }
        if let v = f.trust { terms.append(IndexTerm(index: .trust, prefix: IndexEntry.prefix([v.rawValue]), exact: true)) }
        if let v = f.kind { terms.append(IndexTerm(index: .kind, prefix: IndexEntry.prefix([v.rawValue]), exact: true)) }
        if let v = f.integrity { terms.append(IndexTerm(index: .integrity, prefix: IndexEntry.prefix([v.rawValue]), exact: true)) }
        if let v = f.ingestPrefix { terms.append(IndexTerm(index: .ingest, prefix: Array(try value("ingestPrefix", v).utf8), exact: false)) }
        if let v = f.analyses { terms.append(IndexTerm(index: .analyses, prefix: IndexEntry.prefix([v.rawValue]), exact: true)) }
    }
}
