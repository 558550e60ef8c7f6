import Foundation
import PostgresTestSupport
import Testing
@testable import Postgres

/// PostgreSQL stopped and started again under a running client, on a cluster of its own
/// (`$EXHIBIT_PG_DIR-restart`, made by postgres-up.sh and stopped by postgres-down.sh at the
/// end), so the other tests' server is never disturbed. The test that sends the password to
/// the server in a failing statement runs here too: the server logs the error (with the value),
/// and the main cluster's log is checked to hold no password.
@Suite(.serialized) struct RestartTests {
    static let dir = (ProcessInfo.processInfo.environment["EXHIBIT_PG_DIR"] ?? "/tmp/exhibit-pg") + "-restart"

    func up() throws -> String {
        let exports = try TestServer.up(Self.dir).get()
        let url = try #require(exports["EXHIBIT_PG_URL"])
        return url + "?passfile=" + (try #require(exports["PGPASSFILE"]))
    }

    func down() {
        let run = Run.capture(["bash", TestServer.downScript, Self.dir])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func aStatementAfterARestartFailsTypedAndTheNextReconnects() throws {
        let url = try up()
        defer { down() }
        let c = try Connection(url)
        try c.execute("CREATE TABLE IF NOT EXISTS restarts (n int8)")
        let pid = c.backendPID
        down()
        let lost = #expect(throws: PostgresError.self) { try c.execute("INSERT INTO restarts VALUES (1)") }
        #expect(lost?.code == .connectionLost, "\(String(describing: lost))")
        #expect(lost?.isRetryable == true)
        #expect(!c.isConnected)
        // While the server is down, the next call tries to connect and says so.
        let refused = #expect(throws: PostgresError.self) { try c.execute("SELECT 1") }
        #expect(refused?.code == .connectionFailed, "\(String(describing: refused))")
        _ = try up()
        try c.execute("INSERT INTO restarts VALUES (2)")
        #expect(c.isConnected && c.backendPID != pid)
        #expect(c.reconnects == 1)
        #expect(try c.execute("SELECT count(*) FROM restarts WHERE n = 1").single()?.decode(0, as: Int.self) == 0)
    }

    /// The right password in the URI: the connection works, and no error or description of it
    /// holds the password, even when the server's message quotes it.
    @Test func theRightPasswordInTheURIIsNeverShown() throws {
        _ = try up()
        defer { down() }
        let line = try String(contentsOfFile: Self.dir + "/pgpass", encoding: .utf8)
        let fields = line.split(separator: "\n")[0].split(separator: ":", maxSplits: 4)
        let (port, password) = (String(fields[1]), String(fields[4]))
        let c = try Connection("postgresql://exhibit:\(password)@127.0.0.1:\(port)/exhibit?passfile=/nonexistent")
        #expect(!c.connectionString.description.contains(password))
        #expect(c.connectionString.description.contains("password=********"))
        let error = #expect(throws: PostgresError.self) { try c.execute("SELECT $1::int", [.text("x" + password)]) }
        #expect(error?.code == .server && error?.sqlState == "22P02")
        #expect(error.map { "\($0)".contains("\"x********\"") } == true, "\(String(describing: error))")
        #expect(error.map { !"\($0)".contains(password) } == true)
    }

    /// The server stops in the middle of a transaction: the statement fails as a lost
    /// connection, nothing of the transaction is stored, and the next transaction runs.
    @Test func aRestartInsideATransactionLosesItCleanly() throws {
        let url = try up()
        defer { down() }
        let c = try Connection(url)
        try c.execute("CREATE TABLE IF NOT EXISTS restarts2 (n int8)")
        try c.execute("TRUNCATE restarts2")
        let error = #expect(throws: PostgresError.self) {
            try c.write { tx throws in
                try tx.execute("INSERT INTO restarts2 VALUES (1)")
                down()
                _ = try up()
                try tx.execute("INSERT INTO restarts2 VALUES (2)")
            }
        }
        #expect(error?.code == .connectionLost, "\(String(describing: error))")
        try c.write { tx in _ = try tx.execute("INSERT INTO restarts2 VALUES (3)") }
        let values = try c.execute("SELECT n FROM restarts2 ORDER BY n").map { try $0.decode(0, as: Int64.self) }
        #expect(values == [3])
    }
}
