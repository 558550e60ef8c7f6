import CPQ

/// Rows for `COPY … FROM STDIN` in PostgreSQL's text format, buffered and sent in pieces of
/// about 1 MiB: columns separated by a tab, rows ended by a newline, NULL as `\N`, backslash,
/// tab, newline and carriage return escaped, bytea as `\\x` and hex.
public struct CopyRows: ~Copyable {
    public enum Field {
        case null
        case text(String)
        case bytes([UInt8])
        case int(Int64)
    }

    var buffer: [UInt8] = []
    let flush: ([UInt8]) throws(PostgresError) -> Void
    public private(set) var rows = 0
    static let pieceSize = 1 << 20

    init(flush: @escaping ([UInt8]) throws(PostgresError) -> Void) {
        self.flush = flush
        buffer.reserveCapacity(Self.pieceSize + 4096)
    }

    /// Adds one row.
    public mutating func append(_ fields: [Field]) throws(PostgresError) {
        for (i, f) in fields.enumerated() {
            if i > 0 { buffer.append(0x09) }
            switch f {
            case .null:
                buffer += [0x5c, 0x4e]  // \N
            case .int(let v):
                buffer += Array(String(v).utf8)
            case .text(let s):
                for b in s.utf8 {
                    switch b {
                    case 0: throw PostgresError(.invalidParameter, message: "COPY text field holds a NUL byte")
                    case 0x5c: buffer += [0x5c, 0x5c]
                    case 0x09: buffer += [0x5c, 0x74]
                    case 0x0a: buffer += [0x5c, 0x6e]
                    case 0x0d: buffer += [0x5c, 0x72]
                    default: buffer.append(b)
                    }
                }
            case .bytes(let bytes):
                buffer += [0x5c, 0x5c, 0x78]  // \\x: COPY unescapes it to bytea's \x
                for b in bytes {
                    buffer.append(Self.hex[Int(b >> 4)])
                    buffer.append(Self.hex[Int(b & 0x0f)])
                }
            }
        }
        buffer.append(0x0a)
        rows += 1
        if buffer.count >= Self.pieceSize {
            try flush(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    static let hex = Array("0123456789abcdef".utf8)
}

extension Connection {
    /// Runs `COPY table (columns) FROM STDIN` (the `sql`) outside a transaction, feeding it
    /// the rows `produce` appends; returns the rows the server stored. A throw of `produce`
    /// aborts the COPY (nothing stored).
    @discardableResult
    public func copy(_ sql: String, _ produce: (inout CopyRows) throws -> Void) throws -> Int {
        lock.lock(); defer { lock.unlock() }
        guard !inTransaction else { throw PostgresError(.misuse, message: "copy on a connection inside a transaction: use the transaction") }
        try ensureConnected()
        return try runCopy(sql, produce)
    }

    func runCopy(_ sql: String, _ produce: (inout CopyRows) throws -> Void) throws -> Int {
        let start = try run(sql, [])
        guard PQresultStatus(start.result) == PGRES_COPY_IN else {
            throw PostgresError(.misuse, message: "not a COPY … FROM STDIN statement")
        }
        let c = try handle()
        var rows = CopyRows { (piece: [UInt8]) throws(PostgresError) in
            let rc = piece.withUnsafeBufferPointer { p in
                PQputCopyData(c, UnsafeRawPointer(p.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(p.count))
            }
            if rc != 1 { throw self.error(sqlState: nil, message: String(cString: PQerrorMessage(c)), broken: true) }
        }
        do {
            try produce(&rows)
            if !rows.buffer.isEmpty { try rows.flush(rows.buffer) }
        } catch {
            _ = PQputCopyEnd(c, "aborted by the client")
            while let r = PQgetResult(c) { PQclear(r) }
            throw error
        }
        guard PQputCopyEnd(c, nil) == 1 else {
            throw self.error(sqlState: nil, message: String(cString: PQerrorMessage(c)), broken: true)
        }
        var stored = 0
        var failure: PostgresError? = nil
        while let r = PQgetResult(c) {
            do { stored = try check(r).affected } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        return stored
    }
}

extension Transaction {
    /// `Connection.copy` inside this transaction.
    @discardableResult
    public func copy(_ sql: String, _ produce: (inout CopyRows) throws -> Void) throws -> Int {
        try checkOpen()
        return try connection.runCopy(sql, produce)
    }
}
