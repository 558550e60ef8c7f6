import CPQ

extension Connection {
    /// The protocol's limit on parameters of one statement.
    static let maxParameters = 65_535

    /// Sends one statement with binary parameters and asks for binary results
    /// (`PQexecParams`). No reconnecting: callers decide (`ensureConnected`).
    func run(_ sql: String, _ parameters: [SQLValue], duringCommit: Bool = false) throws(PostgresError) -> Rows {
        guard !sql.utf8.contains(0) else { throw PostgresError(.invalidParameter, message: "the statement text holds a NUL byte") }
        guard parameters.count <= Self.maxParameters else {
            throw PostgresError(.invalidParameter, message: "\(parameters.count) parameters (at most \(Self.maxParameters))")
        }
        var types: [UInt32] = []
        var lengths: [Int32] = []
        var offsets: [Int?] = []
        var storage: [UInt8] = [0]  // never empty, so an empty value still has a non-NULL pointer
        for (i, p) in parameters.enumerated() {
            if case .text(let s) = p, s.utf8.contains(0) {
                throw PostgresError(.invalidParameter, message: "text parameter $\(i + 1) holds a NUL byte")
            }
            types.append(p.type.oid)
            guard let bytes = p.encoded() else {
                offsets.append(nil)
                lengths.append(0)
                continue
            }
            guard bytes.count <= Int(Int32.max) else {
                throw PostgresError(.invalidParameter, message: "parameter $\(i + 1) of \(bytes.count) bytes")
            }
            offsets.append(storage.count)
            lengths.append(Int32(bytes.count))
            storage += bytes
        }
        let formats = [Int32](repeating: 1, count: parameters.count)
        let c = try handle()
        let result: OpaquePointer? = storage.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)  // non-empty
            let values: [UnsafePointer<CChar>?] = offsets.map { $0.map { base + $0 } }
            return PQexecParams(c, sql, Int32(parameters.count), types, values, lengths, formats, 1)
        }
        return try check(result, duringCommit: duringCommit)
    }

    /// Sends a script of statements without parameters (`PQexec`, text results, discarded);
    /// the first failing statement's error is thrown.
    func runScript(_ sql: String) throws(PostgresError) {
        guard !sql.utf8.contains(0) else { throw PostgresError(.invalidParameter, message: "the script text holds a NUL byte") }
        _ = try check(PQexec(try handle(), sql))
    }

    /// Turns a `PGresult` into `Rows` or the error it carries; frees it on error. A connection
    /// that broke on the way makes any failure `pg.connection.lost` (or `pg.commit.unknown`).
    func check(_ result: OpaquePointer?, duringCommit: Bool = false) throws(PostgresError) -> Rows {
        let broken = conn.map { PQstatus($0) != CONNECTION_OK } ?? true
        guard let result else {
            throw error(sqlState: nil, message: conn.map { String(cString: PQerrorMessage($0)) } ?? "no connection",
                        broken: broken, duringCommit: duringCommit)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_COPY_OUT:
            return Rows(owning: result)
        default:
            let field = { (code: Int32) -> String? in PQresultErrorField(result, code).map { String(cString: $0) } }
            let sqlState = field(cpq_diag_sqlstate)
            var message = field(cpq_diag_message_primary) ?? String(cString: PQresultErrorMessage(result))
            if let detail = field(cpq_diag_message_detail) { message += " — \(detail)" }
            let constraint = field(cpq_diag_constraint_name)
            PQclear(result)
            throw error(sqlState: sqlState, message: message, broken: broken || (conn.map { PQstatus($0) != CONNECTION_OK } ?? true),
                        duringCommit: duringCommit, constraint: constraint)
        }
    }

    func error(sqlState: String?, message: String, broken: Bool, duringCommit: Bool = false,
               constraint: String? = nil) -> PostgresError {
        var code = sqlState.map(PostgresError.code(forSQLState:)) ?? (broken ? .connectionLost : .server)
        if broken || code == .connectionLost { code = duringCommit ? .commitOutcomeUnknown : .connectionLost }
        let text = connectionString.redact(message.trimmingCharacters(in: .whitespacesAndNewlines))
        return PostgresError(code, sqlState: sqlState, message: text, constraint: constraint)
    }
}
