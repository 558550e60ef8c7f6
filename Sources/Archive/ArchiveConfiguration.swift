import Foundation

/// Where an archive keeps what is not in its own LMDB environment, as `init` recorded it in
/// `<archive>/archive.json` (mode 0600; docs/archive.md "The archive configuration"). No file
/// means every store is the embedded LMDB one (every archive made before the file existed).
/// Never holds a credential: S3 credentials come from the environment only.
///
///     {"format":1,"blobs":{"store":"s3","bucket":"b","prefix":"p","endpoint":"http://127.0.0.1:17480",
///      "region":"us-east-1","objectLockDays":30}}
///
/// `init --index postgresql://…` adds an `"index"` member beside `"blobs"` and raises `format`
/// to 2, which readers check: a tool that knows only format 1 refuses the archive rather than
/// read an empty LMDB index (docs/postgres.md "init --index"):
///
///     {"blobs":{"store":"lmdb"},"format":2,"index":{"connection":"postgresql://exhibit@db1:5432/exhibit",
///      "schema":"public","store":"postgresql"}}
public struct ArchiveConfiguration: Codable, Sendable, Equatable {
    public static let fileName = "archive.json"
    /// The format of a configuration without an `index`.
    public static let currentFormat = 1
    /// The format of a configuration with an `index` (records, custody and trust elsewhere).
    public static let indexFormat = 2

    public var format: Int
    public var blobs: Blobs
    /// Where records, their index, the custody log, the trust anchors and the work queue live;
    /// nil: the archive's LMDB environment.
    public var index: Index?

    /// The record index elsewhere: a PostgreSQL database and schema (`init --index`).
    public struct Index: Codable, Sendable, Equatable {
        /// `postgresql`.
        public var store: String
        /// The libpq connection string or URI as given to `init`, never with a password (libpq
        /// takes that from `PGPASSWORD`, `PGPASSFILE` or `~/.pgpass`); empty: all of it from the
        /// `PG*` environment on each run.
        public var connection: String
        /// The PostgreSQL schema holding the archive's tables (default `public`).
        public var schema: String

        public init(store: String = "postgresql", connection: String, schema: String = "public") {
            (self.store, self.connection, self.schema) = (store, connection, schema)
        }

        /// How `init`, `stats` and `show` name it: the connection as recorded and the schema.
        public var description: String {
            (connection.isEmpty ? "postgresql (from the PG* environment)" : connection.contains("://") ? connection : "postgresql \(connection)")
                + " schema \(schema)"
        }
    }

    /// Where blobs live.
    public struct Blobs: Codable, Sendable, Equatable {
        /// `lmdb` or `s3`.
        public var store: String
        public var bucket: String?
        public var prefix: String?
        /// The S3 endpoint URL; nil: `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`, else AWS.
        public var endpoint: String?
        /// The region; nil: `AWS_REGION` / `AWS_DEFAULT_REGION`, else `us-east-1`.
        public var region: String?
        /// COMPLIANCE-mode Object Lock retention for every new object, in days.
        public var objectLockDays: Int?

        public init(store: String, bucket: String? = nil, prefix: String? = nil, endpoint: String? = nil,
                    region: String? = nil, objectLockDays: Int? = nil) {
            self.store = store
            self.bucket = bucket
            self.prefix = prefix
            self.endpoint = endpoint
            self.region = region
            self.objectLockDays = objectLockDays
        }

        public static let lmdb = Blobs(store: "lmdb")
    }

    public init(blobs: Blobs, index: Index? = nil) {
        format = index == nil ? Self.currentFormat : Self.indexFormat
        self.blobs = blobs
        self.index = index
    }

    /// The configuration of the archive in `directory`: the file's, or all-LMDB when there is none.
    public static func load(archive directory: String) throws -> ArchiveConfiguration {
        let path = directory + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw ArchiveConfigurationError.unreadable(path) }
            return ArchiveConfiguration(blobs: .lmdb)
        }
        let config: ArchiveConfiguration
        do { config = try JSONDecoder().decode(ArchiveConfiguration.self, from: data) } catch {
            throw ArchiveConfigurationError.invalid(path, "\(error)")
        }
        let expected = config.index == nil ? currentFormat : indexFormat
        guard config.format == expected else {
            throw ArchiveConfigurationError.invalid(path, "format \(config.format) is not \(expected)" + (config.index == nil ? "" : " (an archive with an index elsewhere)"))
        }
        if let index = config.index, index.store != "postgresql" || index.schema.isEmpty {
            throw ArchiveConfigurationError.invalid(path, "index store \(index.store) schema '\(index.schema)'")
        }
        guard ["lmdb", "s3"].contains(config.blobs.store) else { throw ArchiveConfigurationError.invalid(path, "blob store \(config.blobs.store)") }
        if config.blobs.store == "s3", (config.blobs.bucket ?? "").isEmpty { throw ArchiveConfigurationError.invalid(path, "no bucket") }
        return config
    }

    /// Writes the file (mode 0600, replaced atomically).
    public func save(archive directory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let path = directory + "/" + Self.fileName
        let temp = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temp, contents: try encoder.encode(self) + Data("\n".utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw ArchiveConfigurationError.unreadable(temp)
        }
        guard rename(temp, path) == 0 else {
            unlink(temp)
            throw ArchiveConfigurationError.unreadable(path)
        }
    }

    /// Parses `s3://BUCKET[/PREFIX]`.
    public static func s3Location(_ uri: String) -> (bucket: String, prefix: String)? {
        guard uri.hasPrefix("s3://") else { return nil }
        let rest = uri.dropFirst(5)
        let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bucket = parts.first, !bucket.isEmpty else { return nil }
        var prefix = parts.count > 1 ? Substring(parts[1]) : ""
        while prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        return (String(bucket), String(prefix))
    }
}

/// `archive.config.invalid`: `archive.json` cannot be read or is not a configuration this tool
/// knows (exit 3).
public enum ArchiveConfigurationError: Error, CustomStringConvertible {
    case unreadable(String)
    case invalid(String, String)

    public var code: String { "archive.config.invalid" }

    public var description: String {
        switch self {
        case .unreadable(let p): "\(code): \(p) cannot be read or written"
        case .invalid(let p, let why): "\(code): \(p): \(why)"
        }
    }
}
