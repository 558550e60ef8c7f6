import CPQ
import Foundation

extension Connection {
    /// Runs `body` in a READ COMMITTED read-write transaction: it commits when `body` returns and
    /// rolls back when it throws (GRDB's `write { db in }`).
    public func write<R>(_ body: (Transaction) throws -> R) throws -> R {
        try transaction(TransactionOptions(), body)
    }

    /// Runs `body` in a READ ONLY REPEATABLE READ transaction: every statement sees the same
    /// snapshot (as an LMDB read transaction does).
    public func read<R>(_ body: (Transaction) throws -> R) throws -> R {
        try transaction(TransactionOptions(isolation: .repeatableRead, readOnly: true), body)
    }

    /// Runs `body` in a SERIALIZABLE transaction, running it again (bounded by `retry`) when
    /// the server reports a serialization failure or a deadlock — so `body` must be re-runnable:
    /// it derives what it writes from its reads and its arguments.
    public func serializable<R>(retry: RetryPolicy = .standard, _ body: (Transaction) throws -> R) throws -> R {
        try transaction(TransactionOptions(isolation: .serializable, retry: retry), body)
    }

    /// Runs `body` in a transaction with `options`. Connects again first if the connection broke
    /// earlier. A failure to commit is thrown: `pg.serialization` (retried like one of `body`'s),
    /// `pg.commit.unknown` when the connection broke during COMMIT. Transactions do not nest.
    public func transaction<R>(_ options: TransactionOptions, _ body: (Transaction) throws -> R) throws -> R {
        lock.lock(); defer { lock.unlock() }
        guard !inTransaction else { throw PostgresError(.misuse, message: "transactions do not nest") }
        var attempt = 1
        while true {
            do {
                return try once(options, attempt: attempt, body)
            } catch {
                guard let pg = PostgresError.underlying(error), pg.code == .serializationFailure || pg.code == .deadlock,
                      attempt < options.retry.maxAttempts else { throw error }
                Thread.sleep(forTimeInterval: options.retry.delay(after: attempt))
                attempt += 1
            }
        }
    }

    private func once<R>(_ options: TransactionOptions, attempt: Int, _ body: (Transaction) throws -> R) throws -> R {
        try ensureConnected()
        _ = try run(options.begin, [])
        inTransaction = true
        let tx = Transaction(connection: self, options: options, attempt: attempt)
        defer {
            tx.isOpen = false
            inTransaction = false
        }
        let result: R
        do {
            result = try body(tx)
        } catch {
            rollback()
            throw error
        }
        // A statement of `body` failed and `body` went on: COMMIT would only roll back.
        if transactionStatus == PQTRANS_INERROR {
            rollback()
            throw PostgresError(.transactionAborted, sqlState: "25P02",
                                message: "a statement failed inside the transaction and the closure returned normally; rolled back")
        }
        _ = try run("COMMIT", [], duringCommit: true)
        return result
    }

    /// Rolls back quietly: a broken connection has already ended the transaction on the server.
    private func rollback() {
        guard transactionStatus != PQTRANS_IDLE && transactionStatus != PQTRANS_UNKNOWN else { return }
        _ = try? run("ROLLBACK", [])
    }
}
