import Archive
import Foundation
import LMDB

/// `ExportJournalStore` in the archive's LMDB environment (`export.pending`:
/// staging folder path → pid u32 BE ‖ unix time u64 BE). An export notes its staging folder
/// before it writes the replication event and removes the entry once the bag is in place (or
/// the staging folder is gone), so an entry whose process is dead names the folder of a
/// killed export: `ExportRecovery` removes that folder, or finishes it when its event
/// committed.
public struct ExportJournal: ExportJournalStore {
    public static let databaseName = "export.pending"
    let environment: Environment
    let db: Database

    /// Opens the journal (creating its database when the archive is writable).
    public init(environment: Environment) throws {
        self.environment = environment
        do {
            db = try environment.database(Self.databaseName)
        } catch let e as LMDBError where e == .notFound && !environment.options.readOnly {
            db = try environment.database(Self.databaseName, create: true)
        }
    }

    public typealias Entry = ExportJournalEntry

    public func begin(staging: String) throws {
        var value = withUnsafeBytes(of: UInt32(truncatingIfNeeded: getpid()).bigEndian) { Array($0) }
        value += withUnsafeBytes(of: UInt64(Date().timeIntervalSince1970).bigEndian) { Array($0) }
        try environment.write { txn in _ = try txn.put(db, Array(staging.utf8), value) }
    }

    public func end(staging: String) throws {
        try environment.write { txn in _ = try txn.delete(db, Array(staging.utf8)) }
    }

    public func entries() throws -> [Entry] {
        try environment.read { txn in
            var out: [Entry] = []
            try txn.scan(db) { key, value in
                guard value.count == 12 else { return .next }
                let pid = value.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                let time = value.dropFirst(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                out.append(Entry(staging: String(decoding: key, as: UTF8.self), pid: Int32(bitPattern: pid),
                                 started: Date(timeIntervalSince1970: TimeInterval(time))))
                return .next
            }
            return out
        }
    }
}
