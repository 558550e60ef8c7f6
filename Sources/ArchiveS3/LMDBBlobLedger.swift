import Archive
import Crypto
import Foundation
import Ground
import LMDB

/// The blob ledger of an archive without a PostgreSQL index, in its own LMDB environment (the
/// format since `init --blobs`): `s3.blobs` (ID → size, 8 bytes big-endian) and `s3.pending`
/// (pid ‖ 8 random bytes → pid ‖ seconds since 1970), one entry per staging process, removed
/// when the process ends; `gc` clears the entries of pids no longer alive.
public final class LMDBBlobLedger: BlobLedger, @unchecked Sendable {
    let environment: Environment
    let ledger: Database
    let pending: Database
    let registration = Locked<[UInt8]?>(nil)

    public static let ledgerName = "s3.blobs"
    public static let pendingName = "s3.pending"

    /// The ledger in `environment` (created when missing, unless read-only).
    public init(environment: Environment) throws {
        self.environment = environment
        ledger = try Self.open(Self.ledgerName, in: environment)
        pending = try Self.open(Self.pendingName, in: environment)
    }

    static func open(_ name: String, in environment: Environment) throws -> Database {
        do { return try environment.database(name) } catch let e as LMDBError where e == .notFound && !environment.options.readOnly {
            return try environment.database(name, create: true)
        }
    }

    deinit {
        if let token = registration.withLock({ $0 }) {
            _ = try? environment.write { txn in try txn.delete(pending, token) }
        }
    }

    public func recorded(_ id: ContentID) throws -> Int64? {
        try environment.read { txn in
            try txn.withValue(ledger, id) { raw in raw.flatMap { $0.count == 8 ? Int64(bigEndian: $0.loadUnaligned(as: Int64.self)) : nil } }
        }
    }

    public func record(_ blobs: [(ContentID, UInt64)]) throws -> [Bool] {
        if blobs.isEmpty { return [] }
        return try environment.write { txn in
            try blobs.map { id, size in
                try txn.put(ledger, id, withUnsafeBytes(of: Int64(size).bigEndian) { Array($0) }, flags: .noOverwrite)
            }
        }
    }

    public func remove(_ id: ContentID) throws -> Bool {
        try environment.write { txn in try txn.delete(ledger, id) }
    }

    public func entries() throws -> [(ContentID, Int64)] {
        var entries: [(ContentID, Int64)] = []
        try environment.read { txn in
            try txn.scan(ledger) { key, value in
                if let id = ContentID(key), value.count == 8 { entries.append((id, Int64(bigEndian: value.loadUnaligned(as: Int64.self)))) }
                return .next
            }
        }
        return entries
    }

    public func totals() throws -> (blobs: Int64, bytes: Int64) {
        try Self.totals(in: environment)
    }

    /// The totals of the ledger in `environment`, zero when it has none (`stats` of a
    /// read-only archive never creates it).
    public static func totals(in environment: Environment) throws -> (blobs: Int64, bytes: Int64) {
        guard let ledger = try? environment.database(ledgerName) else { return (0, 0) }
        var blobs: Int64 = 0, bytes: Int64 = 0
        try environment.read { txn in
            try txn.scan(ledger) { _, value in
                if value.count == 8 { blobs += 1; bytes += Int64(bigEndian: value.loadUnaligned(as: Int64.self)) }
                return .next
            }
        }
        return (blobs, bytes)
    }

    /// Registers this process in `s3.pending` once (pid, time), so `gc` in another process
    /// leaves objects not yet in the ledger alone while it lives.
    public func markStaging() throws {
        try registration.withLock { token in
            guard token == nil else { return }
            var key = withUnsafeBytes(of: UInt32(getpid()).bigEndian) { Array($0) }
            key += try SecureRandom.bytes(8)
            let value = withUnsafeBytes(of: UInt32(getpid()).bigEndian) { Array($0) }
                + withUnsafeBytes(of: UInt64(Date().timeIntervalSince1970).bigEndian) { Array($0) }
            try environment.write { txn in _ = try txn.put(pending, key, value, flags: []) }
            token = key
        }
    }

    public func sweeping<R>(_ sweep: () throws -> R) throws -> LedgerSweep<R> {
        let me = UInt32(getpid())
        var dead: [[UInt8]] = []
        var busy = false
        try environment.read { txn in
            try txn.scan(pending) { key, value in
                guard value.count >= 4 else { dead.append(Array(key)); return .next }
                let pid = UInt32(bigEndian: value.loadUnaligned(as: UInt32.self))
                if pid == me { return .next }
                if pid > 0 && kill(pid_t(pid), 0) == 0 { busy = true; return .stop }
                dead.append(Array(key))
                return .next
            }
        }
        if busy { return LedgerSweep(result: nil, marksCleared: 0) }
        if !dead.isEmpty {
            try environment.write { txn in for k in dead { _ = try txn.delete(pending, k) } }
        }
        return LedgerSweep(result: try sweep(), marksCleared: dead.count)
    }
}
