import Testing
@testable import Postgres

/// Connection strings are parsed by libpq itself and never shown with their password.
@Suite struct ConnectionStringTests {
    @Test func uriPasswordIsMaskedAndRedacted() throws {
        let cs = try ConnectionString("postgresql://alice:s3cr%65t-pw@db.example:6543/archive?sslmode=disable", environment: [:])
        #expect(cs.value("user") == "alice")
        #expect(cs.value("host") == "db.example")
        #expect(cs.value("port") == "6543")
        #expect(cs.value("dbname") == "archive")
        #expect(cs.value("password") == "********")
        #expect(!cs.description.contains("s3cr"))
        #expect(cs.description.contains("password=********"))
        #expect(!"\(cs)".contains("secret") && !String(reflecting: cs).contains("s3cr"))
        // Both the decoded and the written form are secrets.
        #expect(cs.redact("auth for s3cret-pw failed; raw s3cr%65t-pw") == "auth for ******** failed; raw ********")
    }

    @Test func keywordPasswordIsMasked() throws {
        let cs = try ConnectionString("host=127.0.0.1 port=5432 user=bob password='it\\'s secret' dbname=x", environment: [:])
        #expect(cs.value("password") == "********")
        #expect(!cs.description.contains("secret"))
        #expect(cs.redact("password it's secret leaked") == "password ******** leaked")
    }

    @Test func environmentPasswordIsRedacted() throws {
        let cs = try ConnectionString("dbname=x", environment: ["PGPASSWORD": "from-the-env"])
        #expect(cs.redact("got from-the-env") == "got ********")
        #expect(!cs.description.contains("from-the-env"))
    }

    @Test func emptyMeansTheEnvironment() throws {
        let cs = try ConnectionString("", environment: [:])
        #expect(cs.settings.isEmpty)
        #expect(cs.description == "(connection from the PG* environment)")
    }

    /// libpq's reason is given, but nothing it quotes from the text (which may hold a password).
    @Test(arguments: ["postgresql://u:hunter2%zz@h/db", "host=h password=hunter2 bogus", "postgresql://u:hunter2@h/db?nosuchoption=1"])
    func unparsableTextIsNeverEchoed(_ text: String) throws {
        let error = #expect(throws: PostgresError.self) { try ConnectionString(text, environment: [:]) }
        #expect(error?.code == .invalidConnectionString)
        #expect(error.map { !$0.description.contains("hunter2") } == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("pg.connectionString.invalid: the connection string does not parse: ") == true)
    }

    @Test func quotedPartsAreElided() {
        #expect(ConnectionString.elideQuoted("invalid value \"abc\" for \"port\"\n") == "invalid value \"…\" for \"…\"")
        #expect(ConnectionString.elideQuoted("unterminated \"abc") == "unterminated \"…")
    }

    @Test func identifiersAreQuoted() {
        #expect(SQL.quoteIdentifier("t_1") == "\"t_1\"")
        #expect(SQL.quoteIdentifier("a\"b") == "\"a\"\"b\"")
    }
}
