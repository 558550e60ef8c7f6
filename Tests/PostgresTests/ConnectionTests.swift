import Foundation
import PostgresTestSupport
import Testing
@testable import Postgres

/// Connecting to the real server: the URI of postgres-up.sh, the PG* environment, and the
/// typed failures (wrong password, nothing listening) — never with a password in the text.
@Suite struct ConnectionTests {
    /// The password postgres-up.sh wrote (the fifth field of the pgpass line).
    static func password(_ server: TestServer) throws -> String {
        let line = try String(contentsOfFile: try #require(server.passfile), encoding: .utf8)
        return String(try #require(line.split(separator: "\n").first?.split(separator: ":", maxSplits: 4).last))
    }

    @Test func connectsWithTheURIAndThePasswordFile() throws {
        let server = try TestServer.get()
        let c = try server.connect()
        let row = try #require(try c.execute("SELECT current_user, current_database(), inet_server_addr()::text, current_setting('server_version_num')::int").single())
        #expect(try row.decode(0, as: String.self) == "exhibit")
        #expect(try row.decode(1, as: String.self) == "exhibit")
        #expect(try row.decode(2, as: String.self) == "127.0.0.1/32")
        #expect(try row.decode(3, as: Int.self) >= 150000)
        #expect(c.serverVersion >= 150000)
        #expect(c.isConnected)
        #expect(c.backendPID > 0)
        // The URI postgres-up.sh prints names no password.
        #expect(!server.url.contains(try Self.password(server)))
    }

    /// An empty connection string: libpq takes everything from PGHOST, PGPORT, PGUSER,
    /// PGDATABASE and the password from PGPASSFILE.
    @Test func connectsFromThePGEnvironment() throws {
        let server = try TestServer.get()
        for k in ["PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGPASSFILE"] {
            #expect(ProcessInfo.processInfo.environment[k] == server.environment[k], "\(k)")
        }
        let c = try Connection("")
        let row = try #require(try c.execute("SELECT current_user, inet_server_port()").single())
        #expect(try row.decode(0, as: String.self) == server.environment["PGUSER"])
        #expect(try row.decode(1, as: Int.self) == Int(server.environment["PGPORT"] ?? ""))
    }

    @Test func wrongPasswordIsAnAuthenticationFailureThatNeverShowsIt() throws {
        let server = try TestServer.get()
        let wrong = "Wr0ng-" + UUID().uuidString
        let url = server.url.replacingOccurrences(of: "postgresql://exhibit@", with: "postgresql://exhibit:\(wrong)@")
        #expect(url.contains(wrong))
        let error = #expect(throws: PostgresError.self) { try Connection(url) }
        #expect(error?.code == .authenticationFailed)
        let text = error.map { "\($0) \($0.message) \(String(reflecting: $0))" } ?? ""
        #expect(!text.contains(wrong), "\(text)")
        #expect(text.contains("password=********"), "\(text)")
    }

    @Test func noPasswordAnywhereIsAnAuthenticationFailure() throws {
        let server = try TestServer.get()
        let error = #expect(throws: PostgresError.self) { try Connection(server.url + "?passfile=/nonexistent/pgpass") }
        #expect(error?.code == .authenticationFailed, "\(String(describing: error))")
    }

    /// postgres-up.sh keeps the password out of the server's log and of its own output.
    @Test func thePasswordIsInNoLogAndTheFileIsPrivate() throws {
        let server = try TestServer.get()
        let dir = try #require(server.dir ?? server.passfile.map { ($0 as NSString).deletingLastPathComponent })
        let password = try Self.password(server)
        let log = (try? String(contentsOfFile: dir + "/log/postgres.log", encoding: .utf8)) ?? ""
        #expect(!log.contains(password))
        let attributes = try FileManager.default.attributesOfItem(atPath: try #require(server.passfile))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let again = Run.capture(["bash", TestServer.upScript, dir])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stdout.contains(password) && !again.stderr.contains(password))
        #expect(again.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("export ") })
        for name in ["PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGPASSFILE", "EXHIBIT_PG_URL"] {
            #expect(again.stdout.contains("export \(name)="), "\(name)")
        }
    }

    @Test func nothingListeningIsAConnectionFailure() throws {
        let error = #expect(throws: PostgresError.self) {
            try Connection("postgresql://exhibit@127.0.0.1:1/exhibit?connect_timeout=2")
        }
        #expect(error?.code == .connectionFailed, "\(String(describing: error))")
        #expect(error?.isRetryable == true)
    }

    @Test func sessionSettingsApplyAfterConnecting() throws {
        let server = try TestServer.get()
        let c = try server.connect(settings: [("statement_timeout", "1234ms"), ("application_name", "exhibit-test")])
        let row = try #require(try c.execute("SELECT current_setting('statement_timeout'), current_setting('application_name')").single())
        #expect(try row.decode(0, as: String.self) == "1234ms")
        #expect(try row.decode(1, as: String.self) == "exhibit-test")
    }

    @Test func aStatementTimeoutIsCanceled() throws {
        let c = try TestServer.get().connect(settings: [("statement_timeout", "100ms")])
        let error = #expect(throws: PostgresError.self) { try c.execute("SELECT pg_sleep(5)") }
        #expect(error?.code == .canceled)
        #expect(error?.sqlState == "57014")
        #expect(try c.execute("SELECT 1").count == 1)  // the connection is still good
    }
}
