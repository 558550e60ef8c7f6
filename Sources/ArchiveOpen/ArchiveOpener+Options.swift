import CAS

/// A store option of the environment that cannot be used: `message` says which and what it
/// must be (the command line reports it as a usage error, exit 2).
public struct StoreOptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension ArchiveOpener {
    /// The LMDB environment's options from the process environment (documented in README.md):
    /// `EXHIBIT_LMDB_MAPSIZE` (initial map bytes), `EXHIBIT_LMDB_WRITEMAP=1`,
    /// `EXHIBIT_CAS_CHUNK_SIZE` (bytes, `init` only), `EXHIBIT_CAS_BATCH_MB`.
    public static func storeOptions(from environment: [String: String]) throws(StoreOptionError) -> ContentStore.Options {
        var o = ContentStore.Options()
        if let v = environment["EXHIBIT_LMDB_MAPSIZE"] {
            guard let n = Int(v), n >= 65536 else { throw StoreOptionError(message: "EXHIBIT_LMDB_MAPSIZE must be a byte count ≥ 65536") }
            o.environment.mapSize = n
        }
        if let v = environment["EXHIBIT_LMDB_WRITEMAP"] { o.environment.writeMap = (v == "1") }
        if let v = environment["EXHIBIT_CAS_CHUNK_SIZE"] {
            guard let n = Int(v), (1...(64 << 20)).contains(n) else { throw StoreOptionError(message: "EXHIBIT_CAS_CHUNK_SIZE must be 1…67108864") }
            o.chunkSize = n
        }
        if let v = environment["EXHIBIT_CAS_BATCH_MB"] {
            guard let n = Int(v), (1...1024).contains(n) else { throw StoreOptionError(message: "EXHIBIT_CAS_BATCH_MB must be 1…1024") }
            o.batchBytes = n << 20
        }
        return o
    }
}
