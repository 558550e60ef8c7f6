import CPQ

/// A transaction in progress, handed to the closure of `Connection.write`, `read`,
/// `serializable` or `transaction` and valid only inside it (a use after the closure returned is
/// `pg.misuse`). The closure returning commits; a throw rolls back.
public final class Transaction {
    unowned let connection: Connection
    public let options: TransactionOptions
    /// Which run of the closure this is (1, then 2… after a serialization failure or deadlock).
    public let attempt: Int
    var isOpen = true

    init(connection: Connection, options: TransactionOptions, attempt: Int) {
        self.connection = connection
        self.options = options
        self.attempt = attempt
    }

    /// Runs one statement with `$1…` parameters in this transaction.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue] = []) throws(PostgresError) -> Rows {
        try checkOpen()
        return try connection.run(sql, parameters)
    }

    /// Runs several statements without parameters in this transaction (a migration's script).
    public func executeScript(_ sql: String) throws(PostgresError) {
        try checkOpen()
        try connection.runScript(sql)
    }

    /// `pg_advisory_xact_lock(key)`: waits for the transaction-scoped advisory lock `key`, held
    /// until this transaction commits or rolls back.
    public func advisoryLock(_ key: Int64) throws(PostgresError) {
        try execute("SELECT pg_advisory_xact_lock($1)", [.int64(key)])
    }

    /// `pg_try_advisory_xact_lock(key)`: takes the lock if it is free, without waiting.
    public func tryAdvisoryLock(_ key: Int64) throws(PostgresError) -> Bool {
        guard let row = try execute("SELECT pg_try_advisory_xact_lock($1)", [.int64(key)]).single() else {
            throw PostgresError(.malformedResult, message: "pg_try_advisory_xact_lock returned no row")
        }
        return try row.decode(0, as: Bool.self)
    }

    /// `SET LOCAL name = value` for the rest of this transaction (`statement_timeout`,
    /// `lock_timeout`, …), through `set_config(…, true)`.
    public func setLocal(_ name: String, _ value: String) throws(PostgresError) {
        try execute("SELECT set_config($1, $2, true)", [.text(name), .text(value)])
    }

    func checkOpen() throws(PostgresError) {
        guard isOpen else { throw PostgresError(.misuse, message: "the transaction was used after its closure ended") }
    }
}

/// How a transaction runs.
public struct TransactionOptions: Sendable, Equatable {
    public enum Isolation: String, Sendable {
        case readCommitted = "READ COMMITTED"
        case repeatableRead = "REPEATABLE READ"
        case serializable = "SERIALIZABLE"
    }

    public var isolation: Isolation
    public var readOnly: Bool
    public var retry: RetryPolicy

    public init(isolation: Isolation = .readCommitted, readOnly: Bool = false, retry: RetryPolicy = .none) {
        self.isolation = isolation
        self.readOnly = readOnly
        self.retry = retry
    }

    var begin: String { "BEGIN ISOLATION LEVEL \(isolation.rawValue)" + (readOnly ? " READ ONLY" : "") }
}

/// How often a transaction's closure runs again after a serialization failure (40001) or a
/// deadlock (40P01), with a jittered exponential pause between runs. Bounded: after
/// `maxAttempts` runs the last error is thrown.
public struct RetryPolicy: Sendable, Equatable {
    public var maxAttempts: Int
    /// Pause before the second run (seconds); doubled each run, at most `maxDelay`.
    public var baseDelay: Double
    public var maxDelay: Double

    public init(maxAttempts: Int, baseDelay: Double = 0.002, maxDelay: Double = 0.25) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// One run, no retry.
    public static let none = RetryPolicy(maxAttempts: 1)
    /// Up to 10 runs (pauses 2 ms … 250 ms): what `serializable` uses by default.
    public static let standard = RetryPolicy(maxAttempts: 10)

    /// The pause before run `attempt + 1`, jittered in [½, 1] of the exponential step.
    func delay(after attempt: Int) -> Double {
        let step = min(maxDelay, baseDelay * Double(1 << min(attempt - 1, 20)))
        return step * Double.random(in: 0.5...1)
    }
}

/// An error of a higher layer that carries a `PostgresError`, so a transaction still sees a
/// serialization failure thrown through it and runs its closure again.
public protocol WrapsPostgresError: Error {
    var postgresError: PostgresError? { get }
}

extension PostgresError {
    /// The PostgreSQL error inside `error`: itself, or what a `WrapsPostgresError` carries.
    public static func underlying(_ error: any Error) -> PostgresError? {
        if let e = error as? PostgresError { return e }
        return (error as? any WrapsPostgresError)?.postgresError
    }
}
