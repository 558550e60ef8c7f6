import Ground

/// A failed PostgreSQL call: a stable code the callers and tests compare against, the server's
/// SQLSTATE when the server answered, and a message from which every secret of the connection
/// string (its password) has been removed.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, by what a caller does about it. The raw values are the stable names
    /// (`StatusCode.pg…`).
    public enum Code: Sendable, Hashable, CaseIterable {
        /// No connection could be made (nothing listens, host unknown, timeout, the server is
        /// starting or shutting down). Retry later.
        case connectionFailed
        /// The server refused the credentials (SQLSTATE class 28, a missing or wrong password).
        case authenticationFailed
        /// The connection broke during a call (the server restarted: 57P01, class 08, a reset
        /// socket). The statement did not complete; the next call reconnects.
        case connectionLost
        /// The connection broke while COMMIT was on its way: the transaction may or may not have
        /// committed. Only an idempotent write may simply be run again.
        case commitOutcomeUnknown
        /// 40001: a SERIALIZABLE / REPEATABLE READ transaction lost a conflict. Run it again.
        case serializationFailure
        /// 40P01: the server broke a deadlock by aborting this transaction. Run it again.
        case deadlock
        /// 23505.
        case uniqueViolation
        /// 23503.
        case foreignKeyViolation
        /// 23514.
        case checkViolation
        /// 23502.
        case notNullViolation
        /// Another integrity constraint (class 23).
        case constraintViolation
        /// 57014: `statement_timeout` or a cancel request.
        case canceled
        /// 55P03: `NOWAIT` / `lock_timeout`.
        case lockNotAvailable
        /// 25P02: a statement in a transaction that an earlier error already aborted.
        case transactionAborted
        /// 53100: the server's disk is full.
        case diskFull
        /// Any other error the server reported (its SQLSTATE says which).
        case server
        /// The connection string does not parse (its text is never shown: it may hold a password).
        case invalidConnectionString
        /// A parameter cannot be sent (text holding NUL, too long, too many).
        case invalidParameter
        /// A result value is not what the caller asked for (type, length, NULL, column count).
        case malformedResult
        /// The API was used against its rules (a transaction used after its closure ended).
        case misuse

        /// The stable name (`pg.connection.lost`, …).
        public var rawValue: String {
            switch self {
            case .connectionFailed: StatusCode.pgConnectionFailed
            case .authenticationFailed: StatusCode.pgAuthentication
            case .connectionLost: StatusCode.pgConnectionLost
            case .commitOutcomeUnknown: StatusCode.pgCommitUnknown
            case .serializationFailure: StatusCode.pgSerialization
            case .deadlock: StatusCode.pgDeadlock
            case .uniqueViolation: StatusCode.pgConstraintUnique
            case .foreignKeyViolation: StatusCode.pgConstraintForeignKey
            case .checkViolation: StatusCode.pgConstraintCheck
            case .notNullViolation: StatusCode.pgConstraintNotNull
            case .constraintViolation: StatusCode.pgConstraint
            case .canceled: StatusCode.pgCanceled
            case .lockNotAvailable: StatusCode.pgLockNotAvailable
            case .transactionAborted: StatusCode.pgTransactionAborted
            case .diskFull: StatusCode.pgDiskFull
            case .server: StatusCode.pgServer
            case .invalidConnectionString: StatusCode.pgConnectionStringInvalid
            case .invalidParameter: StatusCode.pgParameterInvalid
            case .malformedResult: StatusCode.pgResultMalformed
            case .misuse: StatusCode.pgMisuse
            }
        }
    }

    public let code: Code
    /// The five-character SQLSTATE when the server sent one.
    public let sqlState: String?
    /// What libpq or the server said, secrets removed.
    public let message: String
    /// The constraint a constraint violation names (`PG_DIAG_CONSTRAINT_NAME`).
    public let constraint: String?

    public init(_ code: Code, sqlState: String? = nil, message: String, constraint: String? = nil) {
        self.code = code
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
    }

    /// True for the failures a caller may simply try again: a lost or impossible connection, a
    /// serialization failure, a deadlock. (Not `commitOutcomeUnknown`: that needs an idempotent
    /// write.)
    public var isRetryable: Bool {
        switch code {
        case .connectionFailed, .connectionLost, .serializationFailure, .deadlock: true
        default: false
        }
    }

    public var description: String {
        var out = "\(code.rawValue): \(message)"
        if let s = sqlState { out += " (SQLSTATE \(s))" }
        return out
    }

    /// The code of a server error with this SQLSTATE.
    public static func code(forSQLState s: String) -> Code {
        switch s {
        case "40001": return .serializationFailure
        case "40P01": return .deadlock
        case "23505": return .uniqueViolation
        case "23503": return .foreignKeyViolation
        case "23514": return .checkViolation
        case "23502": return .notNullViolation
        case "57014": return .canceled
        case "55P03": return .lockNotAvailable
        case "25P02": return .transactionAborted
        case "53100": return .diskFull
        // admin_shutdown, crash_shutdown, cannot_connect_now, database_dropped, idle timeouts
        case "57P01", "57P02", "57P03", "57P04", "57P05": return .connectionLost
        default: break
        }
        if s.hasPrefix("08") { return .connectionLost }
        if s.hasPrefix("28") { return .authenticationFailed }
        if s.hasPrefix("23") { return .constraintViolation }
        return .server
    }
}

extension PostgresError: NamedError {
    public var statusCode: String { code.rawValue }
}
