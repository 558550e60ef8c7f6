import ArchivePostgres
import Foundation
import Postgres
import PostgresTestSupport

/// A test schema with the archive's tables migrated into it, and a connection to it.
final class MigratedSchema: @unchecked Sendable {
    let test: TestSchema
    let schema: ArchiveSchema
    let connection: Connection

    /// On the shared test server, or on `server`.
    init(on server: TestServer? = nil) throws {
        test = try TestSchema(on: server)
        schema = try ArchiveSchema(namespace: test.name)
        connection = try test.connect()
        try schema.migrate(connection)
    }

    /// Another connection to the same schema (another worker).
    func connect() throws -> Connection { try test.connect() }

    func psql(_ sql: String) -> Run.Result { test.psql(sql) }
}

/// Runs `body(i)` on `count` threads of their own (blocking database calls stay off the
/// cooperative pool) and waits for all; the errors they threw, as text.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
    let group = DispatchGroup()
    let errors = NSLock()
    nonisolated(unsafe) var failures: [String] = []
    for i in 0..<count {
        group.enter()
        Thread {
            defer { group.leave() }
            do { try body(i) } catch {
                errors.lock()
                failures.append("\(error)")
                errors.unlock()
            }
        }.start()
    }
    group.wait()
    return failures
}

