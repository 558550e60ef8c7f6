import Archive
import Ground
import Query

/// A record named on the command line: the full ID or an unambiguous prefix of at least 8 hex
/// digits (case-insensitive), as `show`, `export` and `log --record` take it.
enum RecordReference {
    /// `given` lowercased when it is 8 to 64 hex digits; otherwise a usage error of `command`.
    static func checked(_ given: String, command: String) throws -> String {
        let prefix = given.lowercased()
        guard (8...64).contains(prefix.utf8.count),
              prefix.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw UsageError("'\(given)' is not a record ID or a prefix of one (8 to 64 hex digits)", command: command)
        }
        return prefix
    }

    /// The one record ID `given` names: nil when none does; a usage error when it is malformed
    /// or names several (they are listed).
    static func resolve(_ given: String, in index: any RecordStore<IndexedRecord>, command: String) throws -> ContentID? {
        let prefix = try checked(given, command: command)
        let found = try QueryCommand.queryErrors { try index.recordIds(withPrefix: prefix, limit: 5) }
        guard found.count <= 1 else {
            throw UsageError("'\(given)' matches several records: \(found.map(\.hex).joined(separator: ", "))\(found.count == 5 ? ", …" : "")",
                             command: command)
        }
        return found.first
    }
}
