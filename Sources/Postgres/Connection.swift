import CPQ
import Foundation

/// One connection to a PostgreSQL server through libpq. A final class owns the `PGconn` and
/// closes it in `deinit`.
///
/// Every call is synchronous and blocks its thread on the network: call it from a thread of
/// your own (a worker thread, `DispatchQueue`), never from a task of the cooperative pool. One
/// call runs at a time (a recursive lock serializes threads sharing a connection).
///
/// A connection that broke (the server restarted, a reset socket) fails the statement that
/// found it with `pg.connection.lost`; the next call outside a transaction connects anew with
/// the same settings (`reconnects` counts how often). Within a transaction nothing reconnects:
/// the transaction is gone, and its closure sees the error.
public final class Connection: @unchecked Sendable {
    public struct Options: Sendable {
        /// `fallback_application_name` (a connection string's own `application_name` wins).
        public var applicationName = "exhibit-archive"
        /// `connect_timeout` in seconds unless the connection string sets one.
        public var connectTimeout = 10
        /// Session settings applied with `set_config` after every connect and reconnect
        /// (`search_path`, `statement_timeout`, …), in order.
        public var settings: [(name: String, value: String)] = []
        public init() {}
    }

    public let connectionString: ConnectionString
    public let options: Options
    private(set) var conn: OpaquePointer?
    let lock = NSRecursiveLock()
    var inTransaction = false
    /// How many times the connection was made again after it broke.
    public var reconnects: Int {
        lock.lock(); defer { lock.unlock() }
        return max(0, connects - 1)
    }
    private var connects = 0

    /// Connects now (so a wrong address or password is an error here, not at the first query).
    public init(_ connectionString: ConnectionString, options: Options = Options()) throws(PostgresError) {
        self.connectionString = connectionString
        self.options = options
        try connect()
    }

    /// Parses `text` (a libpq connection string or URI; "" = all from the environment) and connects.
    public convenience init(_ text: String = "", options: Options = Options()) throws(PostgresError) {
        try self.init(try ConnectionString(text), options: options)
    }

    deinit { if let conn { PQfinish(conn) } }

    /// True when libpq last saw the connection healthy.
    public var isConnected: Bool {
        lock.lock(); defer { lock.unlock() }
        return conn.map { PQstatus($0) == CONNECTION_OK } ?? false
    }

    /// The server's version number (`150018` for 15.18), 0 when not connected.
    public var serverVersion: Int {
        lock.lock(); defer { lock.unlock() }
        return conn.map { Int(PQserverVersion($0)) } ?? 0
    }

    /// The process ID of the server process serving this connection.
    public var backendPID: Int32 {
        lock.lock(); defer { lock.unlock() }
        return conn.map { PQbackendPID($0) } ?? 0
    }

    // MARK: Statements

    /// Runs one statement with `$1…` parameters (binary format) outside a transaction (it
    /// commits on its own). Reconnects first when the connection broke earlier.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue] = []) throws(PostgresError) -> Rows {
        lock.lock(); defer { lock.unlock() }
        guard !inTransaction else { throw PostgresError(.misuse, message: "execute on a connection inside a transaction: use the transaction") }
        try ensureConnected()
        return try run(sql, parameters)
    }

    /// Runs a script of several statements without parameters (the simple query protocol:
    /// migrations, DDL). Outside a transaction each statement commits on its own.
    public func executeScript(_ sql: String) throws(PostgresError) {
        lock.lock(); defer { lock.unlock() }
        guard !inTransaction else { throw PostgresError(.misuse, message: "executeScript on a connection inside a transaction") }
        try ensureConnected()
        try runScript(sql)
    }

    // MARK: Connecting

    /// Makes the connection (again): defaults first, then the connection string, whose
    /// settings win (`PQconnectdbParams` with `expand_dbname`); then the session settings.
    func connect() throws(PostgresError) {
        if let old = conn { PQfinish(old); conn = nil }
        let keywords = ["fallback_application_name", "connect_timeout", "dbname"]
        let values = [options.applicationName, String(options.connectTimeout), connectionString.text]
        let c: OpaquePointer? = withCStrings(keywords) { k in withCStrings(values) { v in PQconnectdbParams(k, v, 1) } }
        guard let c else { throw PostgresError(.connectionFailed, message: "libpq could not allocate a connection") }
        guard PQstatus(c) == CONNECTION_OK else {
            let message = connectionString.redact(String(cString: PQerrorMessage(c)).trimmingCharacters(in: .whitespacesAndNewlines))
            let needsPassword = PQconnectionNeedsPassword(c) == 1
            PQfinish(c)
            let auth = needsPassword || message.contains("authentication failed") || message.contains("no pg_hba.conf entry")
            throw PostgresError(auth ? .authenticationFailed : .connectionFailed,
                                message: "\(connectionString): \(message)")
        }
        cpq_silence_notices(c)
        conn = c
        connects += 1
        for s in options.settings {
            do {
                _ = try run("SELECT set_config($1, $2, false)", [.text(s.name), .text(s.value)])
            } catch {
                PQfinish(c)
                conn = nil
                throw error
            }
        }
    }

    /// Connects again when there is no healthy connection.
    func ensureConnected() throws(PostgresError) {
        if let c = conn, PQstatus(c) == CONNECTION_OK { return }
        try connect()
    }

    /// The live `PGconn`, or `pg.connection.lost` (no reconnecting here: inside a transaction
    /// that would silently start a new session).
    func handle() throws(PostgresError) -> OpaquePointer {
        guard let c = conn, PQstatus(c) == CONNECTION_OK else {
            throw PostgresError(.connectionLost, message: "the connection is closed")
        }
        return c
    }

    /// `PQtransactionStatus` of the live connection.
    var transactionStatus: PGTransactionStatusType {
        conn.map { PQtransactionStatus($0) } ?? PQTRANS_UNKNOWN
    }
}

/// Runs `body` with `strings` as a NULL-terminated array of C strings.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for p in copies { free(p) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }  // non-empty: holds the terminator
}
