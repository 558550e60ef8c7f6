import Foundation
import Postgres

/// A schema of its own in the test database for one test (`t_` and 16 random hex digits),
/// dropped with everything in it when the value is released. Tests that share the server never
/// see each other's tables; advisory-lock keys of the stores are derived from the schema name,
/// so they do not block each other either.
public final class TestSchema: @unchecked Sendable {
    public let name: String
    public let server: TestServer

    /// On the shared test server, or on `server`.
    public init(on server: TestServer? = nil) throws {
        self.server = try server ?? TestServer.get()
        name = "t_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        try self.server.connect().execute("CREATE SCHEMA \(SQL.quoteIdentifier(name))")
    }

    deinit {
        let name = self.name
        _ = try? server.connect().execute("DROP SCHEMA IF EXISTS \(SQL.quoteIdentifier(name)) CASCADE")
    }

    /// A new connection whose `search_path` is this schema.
    public func connect(settings: [(name: String, value: String)] = []) throws -> Connection {
        try server.connect(schema: name, settings: settings)
    }

    /// `psql -c sql` with `search_path` set to this schema; its output (status checked by the caller).
    public func psql(_ sql: String) -> Run.Result { server.psql(sql, schema: name) }
}
