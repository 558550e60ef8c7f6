import CPQ
import Foundation

/// A libpq connection string — `host=127.0.0.1 port=5432 dbname=exhibit` or a URI
/// `postgresql://user@host:port/dbname?sslmode=…` — kept whole for libpq and shown only
/// redacted. What it leaves out libpq takes from the `PG*` environment (`PGHOST`, `PGPORT`,
/// `PGUSER`, `PGDATABASE`, `PGPASSFILE`, …) and the password from `~/.pgpass` / `PGPASSFILE`;
/// an empty string means "all of it from there".
///
/// `description` lists the settings with the password replaced by `********`; `redact(_:)`
/// removes every secret it knows (the password as written and as decoded, and `PGPASSWORD`)
/// from any message. The raw text is never part of an error or a description.
public struct ConnectionString: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The text handed to libpq. Internal: nothing prints it.
    let text: String
    /// The keywords the text sets, in libpq's order, with their values (the password's value
    /// replaced by `********`).
    public let settings: [Setting]
    /// Strings removed from every message: the password as libpq decoded it and as written.
    let secrets: [String]

    public struct Setting: Sendable, Equatable {
        public let keyword: String
        public let value: String
    }

    static let mask = "********"
    /// Keywords whose values are secrets.
    static let secretKeywords: Set<String> = ["password", "sslpassword"]

    /// Parses `text` with libpq's own parser (`PQconninfoParse`), so exactly what libpq accepts
    /// is accepted. Throws `pg.connectionString.invalid` with libpq's reason, every quoted part of
    /// which is elided (a parse error may quote the text, and the text may hold a password).
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresError) {
        self.text = text
        var error: UnsafeMutablePointer<CChar>? = nil
        guard let options = PQconninfoParse(text, &error) else {
            let reason = error.map { String(cString: $0) } ?? "out of memory"
            if let error { PQfreemem(error) }
            throw PostgresError(.invalidConnectionString,
                                message: "the connection string does not parse: \(Self.elideQuoted(reason))")
        }
        defer { PQconninfoFree(options) }
        var settings: [Setting] = []
        var secrets: [String] = []
        var p = options
        while let keyword = p.pointee.keyword {
            if let value = p.pointee.val {
                let k = String(cString: keyword), v = String(cString: value)
                if Self.secretKeywords.contains(k) {
                    if !v.isEmpty { secrets.append(v) }
                    settings.append(Setting(keyword: k, value: Self.mask))
                } else {
                    settings.append(Setting(keyword: k, value: v))
                }
            }
            p += 1
        }
        secrets += Self.uriPassword(text).map { [$0] } ?? []
        if let env = environment["PGPASSWORD"], !env.isEmpty { secrets.append(env) }
        self.settings = settings
        // Longest first, so a secret containing another is removed whole.
        self.secrets = Array(Set(secrets)).sorted { $0.count > $1.count }
    }

    /// The value of `keyword` as the text sets it (nil when the environment or a default will
    /// decide); the password reads as `********`.
    public func value(_ keyword: String) -> String? {
        settings.first { $0.keyword == keyword }?.value
    }

    public var description: String {
        settings.isEmpty ? "(connection from the PG* environment)"
                         : settings.map { "\($0.keyword)=\($0.value)" }.joined(separator: " ")
    }

    public var debugDescription: String { "ConnectionString(\(description))" }

    /// `message` with every known secret replaced by `********`.
    public func redact(_ message: String) -> String {
        var out = message
        for s in secrets where !s.isEmpty { out = out.replacingOccurrences(of: s, with: Self.mask) }
        return out
    }

    /// The password part of a URI's user info as written (`postgresql://user:PASS@host`), before
    /// percent-decoding.
    static func uriPassword(_ text: String) -> String? {
        guard let scheme = text.range(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return nil }
        let userInfo = rest[..<at]
        guard !userInfo.contains("/"), let colon = userInfo.firstIndex(of: ":") else { return nil }
        let password = userInfo[userInfo.index(after: colon)...]
        return password.isEmpty ? nil : String(password)
    }

    /// Replaces every `"…"` part of a libpq message with `"…"` (elided).
    static func elideQuoted(_ message: String) -> String {
        var out = ""
        var inQuote = false
        for c in message {
            if c == "\"" {
                out.append(inQuote ? "…\"" : "\"")
                inQuote.toggle()
            } else if !inQuote {
                out.append(c)
            }
        }
        if inQuote { out.append("…") }
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
