import Ground
import Postgres
import Query

extension RecordTable {
    /// The records `filter` selects, as docs/query.md defines them: `matches`, and apart from
    /// them the records whose capture time is known only at a coarser rung containing the time
    /// prefix (`indeterminate`), every other filter applying to both. IDs lowercase hex,
    /// ascending (bytea order is byte order, which is hex order). With `limit`, the first
    /// `limit` of each list. Two statements, each an index scan per filter that the planner
    /// combines; no body is read.
    public static func query(_ filter: RecordFilter, limit: Int? = nil, in tx: Transaction) throws -> QueryResult {
        if let limit, limit < 1 { throw QueryError.invalidField(name: "limit", value: String(limit)) }
        let plan = try FilterSQL(filter)
        if let (sql, params) = plan.sidecarsOnly(count: false, limit: limit) {
            return QueryResult(matches: try tx.execute(sql, params).map(contentID), indeterminate: [])
        }
        func ids(_ time: FilterSQL.TimeTerm) throws -> [ContentID] {
            guard var (sql, params) = plan.whereClause(time) else { return [] }
            sql = "SELECT record_id FROM records r WHERE \(sql) ORDER BY record_id"
            if let limit {
                params.append(.int64(Int64(limit)))
                sql += " LIMIT $\(params.count)"
            }
            return try tx.execute(sql, params).map(contentID)
        }
        return QueryResult(matches: try ids(.matches), indeterminate: try ids(.indeterminate))
    }

    /// How many records `filter` selects (see `query`): `count(*)` of the same conditions, one
    /// statement. (Served by the narrow count indexes of migration 5 where the planner finds
    /// them cheaper: B-tree deduplication makes them a fraction of the listing indexes' size.)
    public static func count(_ filter: RecordFilter, in tx: Transaction) throws -> QueryCount {
        let plan = try FilterSQL(filter)
        if let (sql, params) = plan.sidecarsOnly(count: true, limit: nil) {
            return QueryCount(matches: try tx.execute(sql, params).single()?.decode(0, as: Int.self) ?? 0, indeterminate: 0)
        }
        var params: [SQLValue] = []
        func count(_ time: FilterSQL.TimeTerm) -> String {
            guard let (sql, p) = plan.whereClause(time, numberingFrom: params.count) else { return "0::int8" }
            params += p
            return "(SELECT count(*) FROM records r WHERE \(sql))"
        }
        let sql = "SELECT \(count(.matches)), \(count(.indeterminate))"
        guard let row = try tx.execute(sql, params).single() else { return QueryCount(matches: 0, indeterminate: 0) }
        return QueryCount(matches: try row.decode(0, as: Int.self), indeterminate: try row.decode(1, as: Int.self))
    }
}

/// A `RecordFilter` as SQL conditions on `records r`, validated exactly as LMDB's query plan
/// validates it (`index.field.invalid` for an empty value, a NUL, a fingerprint that is not
/// lowercase hex).
struct FilterSQL {
    enum TimeTerm { case matches, indeterminate }

    /// Conditions on `records` other than the time, each with its parameters (numbered from 1
    /// in order).
    var terms: [(sql: String, values: [SQLValue])] = []
    /// The sidecar condition (a sink, a state, or both), when the filter has one.
    var sidecar: (sink: SidecarSink?, state: SidecarState?)?
    /// `capture_time` starts with the time prefix: the condition.
    var timeTerm: (sql: String, values: [SQLValue])?
    /// Every strict prefix of P (at a UTF-8 boundary): a record known only at one of them is
    /// indeterminate.
    var coarser: [String] = []

    init(_ f: RecordFilter) throws {
        func value(_ name: String, _ v: String) throws -> String {
            guard !v.isEmpty, !v.utf8.contains(0) else { throw QueryError.invalidField(name: name, value: v) }
            return v
        }
        if let k = f.keyPrefix {
            guard !k.isEmpty, ContentID.isLowercaseHex(k) else { throw QueryError.invalidField(name: "keyPrefix", value: k) }
            // A full SHA-256 fingerprint is exact; anything shorter a prefix.
            terms.append(k.utf8.count == 64 ? ("r.key_fingerprint = $", [.text(k)]) : Self.startsWith("r.key_fingerprint", k))
        }
        if f.sidecarState != nil || f.sink != nil { sidecar = (f.sink, f.sidecarState) }
        if let t = f.timePrefix {
            let p = try value("timePrefix", t)
            timeTerm = Self.startsWith("r.capture_time", p)
            let bytes = Array(p.utf8)
            coarser = (1..<bytes.count).compactMap { String(validating: bytes[0..<$0], as: UTF8.self) }
        }
        if let v = f.trust { terms.append(("r.trust = $", [.text(v.rawValue)])) }
        if let v = f.kind { terms.append(("r.kind = $", [.text(v.rawValue)])) }
        if let v = f.integrity { terms.append(("r.integrity = $", [.text(v.rawValue)])) }
        if let v = f.ingestPrefix { terms.append(Self.startsWith("r.ingest_time", try value("ingestPrefix", v))) }
        // The column of migration 8 (`records_by_analyses`), as LMDB's `idx.byAnalyses`.
        if let v = f.analyses { terms.append(("r.analyses = $", [.text(v.rawValue)])) }
    }

    /// The conditions on `record_sidecars s` of the sidecar filter, and their values.
    var sidecarConditions: (sql: String, values: [SQLValue])? {
        guard let sidecar else { return nil }
        switch (sidecar.sink, sidecar.state) {
        case let (sink?, state?): return ("s.sink = $ AND s.state = $", [.text(sink.rawValue), .text(state.rawValue)])
        case let (sink?, nil): return ("s.sink = $", [.text(sink.rawValue)])
        case let (nil, state?): return ("s.state = $", [.text(state.rawValue)])
        case (nil, nil): return nil
        }
    }

    /// When the sidecar filter is the only one: the statement that answers from
    /// `record_sidecars` alone (its foreign key guarantees each row's record), without a join
    /// to `records` — the IDs ascending (at most `limit`), or their count. With a sink, a
    /// record has at most one row (the primary key is record and sink); without, DISTINCT.
    func sidecarsOnly(count: Bool, limit: Int?) -> (String, [SQLValue])? {
        guard terms.isEmpty, timeTerm == nil, let (conditions, values) = sidecarConditions else { return nil }
        let (whereSQL, params) = Self.number([(conditions, values)], from: 0)
        let ids = sidecar?.sink == nil ? "SELECT DISTINCT s.record_id FROM record_sidecars s WHERE \(whereSQL)"
                                       : "SELECT s.record_id FROM record_sidecars s WHERE \(whereSQL)"
        if count { return ("SELECT count(*) FROM (\(ids)) d", params) }
        guard let limit else { return (ids + " ORDER BY 1", params) }
        return (ids + " ORDER BY 1 LIMIT $\(params.count + 1)", params + [.int64(Int64(limit))])
    }

    /// The WHERE clause of one list and its parameters, numbered `$(first + 1)`…; nil when the
    /// list is empty by construction (indeterminate without a time prefix, or with a one-byte one).
    func whereClause(_ time: TimeTerm, numberingFrom first: Int = 0) -> (String, [SQLValue])? {
        var all = terms
        if let (sql, values) = sidecarConditions {
            all.append(("EXISTS (SELECT 1 FROM record_sidecars s WHERE s.record_id = r.record_id AND \(sql))", values))
        }
        switch time {
        case .matches:
            if let timeTerm { all.append(timeTerm) }
        case .indeterminate:
            guard timeTerm != nil, !coarser.isEmpty else { return nil }
            all.append(("r.capture_time = ANY ($::text[])", [.textArray(coarser)]))
        }
        return Self.number(all, from: first)
    }

    /// The conditions joined by AND, each `$` replaced by `$n` (numbered from `first + 1`) and
    /// its value appended.
    static func number(_ conditions: [(sql: String, values: [SQLValue])], from first: Int) -> (String, [SQLValue]) {
        var params: [SQLValue] = []
        var parts: [String] = []
        for (sql, values) in conditions {
            var text = ""
            var next = values.makeIterator()
            for c in sql {
                if c == "$", let v = next.next() {
                    params.append(v)
                    text += "$\(first + params.count)"
                } else {
                    text.append(c)
                }
            }
            parts.append(text)
        }
        return (parts.isEmpty ? "true" : parts.joined(separator: " AND "), params)
    }

    /// `column` starts with `prefix` (the columns are `COLLATE "C"`: byte order). When the
    /// prefix ends in an ASCII character below DEL, the half-open range [prefix, prefix with
    /// that byte + 1) — exactly the strings that start with it, and a plain index range with no
    /// per-row pattern match; else `LIKE 'prefix%'`.
    static func startsWith(_ column: String, _ prefix: String) -> (sql: String, values: [SQLValue]) {
        let bytes = Array(prefix.utf8)
        if let last = bytes.last, last < 0x7f, let next = String(validating: bytes.dropLast() + [last + 1], as: UTF8.self) {
            return ("(\(column) >= $ AND \(column) < $)", [.text(prefix), .text(next)])
        }
        return ("\(column) LIKE $", [.text(likePrefix(prefix))])
    }

    /// A LIKE pattern matching the strings that start with `prefix` (`\`, `%`, `_` escaped).
    static func likePrefix(_ prefix: String) -> String {
        var out = ""
        for c in prefix {
            if c == "\\" || c == "%" || c == "_" { out.append("\\") }
            out.append(c)
        }
        return out + "%"
    }
}
