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
        func ids(_ time: FilterSQL.TimeTerm) throws -> [String] {
            guard var (sql, params) = plan.whereClause(time) else { return [] }
            sql = "SELECT record_id FROM records r WHERE \(sql) ORDER BY record_id"
            if let limit {
                params.append(.int64(Int64(limit)))
                sql += " LIMIT $\(params.count)"
            }
            return try tx.execute(sql, params).map { try hex(id: $0) }
        }
        return QueryResult(matches: try ids(.matches), indeterminate: try ids(.indeterminate))
    }

    /// How many records `filter` selects (see `query`): `count(*)` of the same conditions, one
    /// statement.
    public static func count(_ filter: RecordFilter, in tx: Transaction) throws -> QueryCount {
        let plan = try FilterSQL(filter)
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

    /// Conditions other than the time, each with its parameters (numbered from 1 in order).
    var terms: [(sql: String, values: [SQLValue])] = []
    /// `capture_time LIKE 'P%'`: the pattern.
    var timePattern: String?
    /// Every strict prefix of P (at a UTF-8 boundary): a record known only at one of them is
    /// indeterminate.
    var coarser: [String] = []

    init(_ f: RecordFilter) throws {
        func value(_ name: String, _ v: String) throws -> String {
            guard !v.isEmpty, !v.utf8.contains(0) else { throw QueryError.invalidField(name: name, value: v) }
            return v
        }
        if let k = f.keyPrefix {
            guard !k.isEmpty, k.utf8.allSatisfy(Hex.isLowercaseDigit) else { throw QueryError.invalidField(name: "keyPrefix", value: k) }
            // A full SHA-256 fingerprint is exact; anything shorter a prefix.
            terms.append(k.utf8.count == 64 ? ("r.key_fingerprint = $", [.text(k)]) : ("r.key_fingerprint LIKE $", [.text(Self.likePrefix(k))]))
        }
        if let s = f.sidecarState {
            let state = try value("sidecarState", s)
            if let sink = try f.sink.map({ try value("sink", $0) }) {
                terms.append(("EXISTS (SELECT 1 FROM record_sidecars s WHERE s.record_id = r.record_id AND s.sink = $ AND s.state = $)",
                              [.text(sink), .text(state)]))
            } else {
                terms.append(("EXISTS (SELECT 1 FROM record_sidecars s WHERE s.record_id = r.record_id AND s.state = $)", [.text(state)]))
            }
        } else if let sink = f.sink {
            terms.append(("EXISTS (SELECT 1 FROM record_sidecars s WHERE s.record_id = r.record_id AND s.sink = $)",
                          [.text(try value("sink", sink))]))
        }
        if let t = f.timePrefix {
            let p = try value("timePrefix", t)
            timePattern = Self.likePrefix(p)
            let bytes = Array(p.utf8)
            coarser = (1..<bytes.count).compactMap { String(validating: bytes[0..<$0], as: UTF8.self) }
        }
        if let v = f.trust { terms.append(("r.trust = $", [.text(try value("trust", v))])) }
        if let v = f.kind { terms.append(("r.kind = $", [.text(try value("kind", v))])) }
        if let v = f.integrity { terms.append(("r.integrity = $", [.text(try value("integrity", v))])) }
        if let v = f.ingestPrefix { terms.append(("r.ingest_time LIKE $", [.text(Self.likePrefix(try value("ingestPrefix", v)))])) }
    }

    /// The WHERE clause of one list and its parameters, numbered `$(first + 1)`…; nil when the
    /// list is empty by construction (indeterminate without a time prefix, or with a one-byte one).
    func whereClause(_ time: TimeTerm, numberingFrom first: Int = 0) -> (String, [SQLValue])? {
        var all = terms
        switch time {
        case .matches:
            if let timePattern { all.append(("r.capture_time LIKE $", [.text(timePattern)])) }
        case .indeterminate:
            guard timePattern != nil, !coarser.isEmpty else { return nil }
            all.append(("r.capture_time = ANY ($::text[])", [.textArray(coarser)]))
        }
        var params: [SQLValue] = []
        var parts: [String] = []
        for (sql, values) in all {
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
