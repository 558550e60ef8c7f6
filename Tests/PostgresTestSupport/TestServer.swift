import Foundation
@_exported import ProcessSupport  // Run, for the suites and the probe that use this target
import Postgres

/// The real PostgreSQL server the tests run against. When the environment names none
/// (`EXHIBIT_PG_URL`), `scripts/services/postgres-up.sh` is run once per process with a fixed
/// directory (`$EXHIBIT_PG_DIR`, else /tmp/exhibit-pg; idempotent: a running server is reused)
/// and its `export` lines are read and put into this process's environment (before any
/// connection is made), so libpq sees `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE` and
/// `PGPASSFILE` as a user's shell would.
public struct TestServer: Sendable {
    /// The `PG*` variables and `EXHIBIT_PG_URL` in force.
    public let environment: [String: String]
    /// `EXHIBIT_PG_URL`: a URI without a password.
    public let url: String
    /// The directory of the cluster postgres-up.sh made (nil when the environment named a server).
    public let dir: String?

    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    public static var upScript: String { repository.appendingPathComponent("scripts/services/postgres-up.sh").path }
    public static var downScript: String { repository.appendingPathComponent("scripts/services/postgres-down.sh").path }

    /// Started (or found) once; a failure to start is reported by every test that needs it.
    public static let shared: Result<TestServer, StartFailure> = {
        var env = ProcessInfo.processInfo.environment
        if env["EXHIBIT_PG_URL"] == nil {
            let dir = env["EXHIBIT_PG_DIR"] ?? "/tmp/exhibit-pg"
            switch up(dir) {
            case .failure(let f): return .failure(f)
            case .success(let exports):
                for (k, v) in exports {
                    env[k] = v
                    setenv(k, v, 1)
                }
                return .success(TestServer(environment: env, url: exports["EXHIBIT_PG_URL"] ?? "", dir: dir))
            }
        }
        return .success(TestServer(environment: env, url: env["EXHIBIT_PG_URL"] ?? "", dir: env["EXHIBIT_PG_DIR"]))
    }()

    public static func get() throws -> TestServer { try shared.get() }

    /// A server of `postgres-up.sh DIR` other than the shared one (a cluster a test stops and
    /// starts), from the variables of its `export` lines.
    public init(exports: [String: String], dir: String) {
        environment = ProcessInfo.processInfo.environment.merging(exports) { $1 }
        url = exports["EXHIBIT_PG_URL"] ?? ""
        self.dir = dir
    }

    init(environment: [String: String], url: String, dir: String?) {
        (self.environment, self.url, self.dir) = (environment, url, dir)
    }

    /// Runs postgres-up.sh DIR (with `extra` added to our environment, e.g. its
    /// `EXHIBIT_PG_PORT`) and returns the variables of its `export` lines.
    public static func up(_ dir: String, environment extra: [String: String] = [:]) -> Result<[String: String], StartFailure> {
        let env = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let run = Run.capture(["bash", upScript, dir], environment: env)
        guard run.status == 0 else { return .failure(StartFailure(message: "postgres-up.sh exited \(run.status): \(run.stderr)")) }
        var exports: [String: String] = [:]
        for line in run.stdout.split(separator: "\n") {
            guard line.hasPrefix("export "), let eq = line.firstIndex(of: "=") else {
                return .failure(StartFailure(message: "postgres-up.sh printed a line that is not an export: \(line)"))
            }
            exports[String(line.dropFirst(7)[..<eq])] = String(line[line.index(after: eq)...])
        }
        return .success(exports)
    }

    /// The password file libpq reads (`PGPASSFILE`).
    public var passfile: String? { environment["PGPASSFILE"] }

    /// `url` with the password file named in it, so a connection needs no environment.
    public var connectionURL: String {
        guard let passfile else { return url }
        return url + (url.contains("?") ? "&" : "?") + "passfile=" + passfile
    }

    /// A connection to the test database, with `search_path` set to `schema` when given.
    public func connect(schema: String? = nil, settings: [(name: String, value: String)] = []) throws -> Connection {
        var options = Connection.Options()
        options.settings = settings + (schema.map { [("search_path", SQL.quoteIdentifier($0))] } ?? [])
        return try Connection(connectionURL, options: options)
    }

    /// Runs `psql` (the independent peer) on `sql` as the test role: unaligned, tuples only,
    /// stopping at the first error. Returns its status and output.
    public func psql(_ sql: String, schema: String? = nil) -> Run.Result {
        var env = environment
        if let schema { env["PGOPTIONS"] = "-c search_path=\(schema)" }
        return Run.capture(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql], environment: env)
    }
}

public struct StartFailure: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "the PostgreSQL test server did not start: \(message)" }
}
