import Custody
import Ground

/// The archive's custody log, wherever it lives: one hash chain of events, appended by any
/// number of writers and never rewritten. Two implementations: LMDB (`CustodyLog` in ArchiveLMDB,
/// the archive environment's `custody.*` databases) and PostgreSQL (`PostgresCustodyStore` in
/// ArchivePostgres, `custody_events` under an advisory lock); one contract suite runs against
/// both (docs/archive.md).
///
/// The store keeps events as bytes — each event's canonical bytes followed by its 32-byte
/// hash, exactly LMDB's `custody.events` value — and chains them; what an event says and how
/// it is hashed is the custody format's (the `Custody` target's `CustodyEvent`, docs/ingest.md), which builds
/// each event for the seq and previous hash the store hands it (`CustodyAppend.make`). The
/// store guarantees what the chain needs from storage: appends are serialized, seq numbers
/// run 1, 2, 3, … with none used twice or skipped, and each event's `prevHash` is the hash of
/// the one before it. Errors are typed and conform to `NamedError`. Every call is its own
/// transaction (appends with a record go through `RecordStore.put(_:custody:)`, with an anchor
/// through `TrustAnchorStore`); implementations are safe to share between threads.
public protocol CustodyStore: AnyObject, Sendable {
    /// Appends `events` in order in one transaction (all or none) and returns them stored.
    @discardableResult
    func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent]

    /// The last event's seq and hash (0 and 32 zero bytes when the log is empty).
    func head() throws -> CustodyHead

    /// Events with seq > `after`, in seq order, at most `limit` (a walk of the whole log in
    /// pages: pass the last seq seen).
    func storedEvents(after: UInt64, limit: Int) throws -> [StoredCustodyEvent]

    /// The events naming `objectId` (a record ID, blob ID, anchor fingerprint or export), in
    /// seq order.
    func storedEvents(forObject objectId: String) throws -> [StoredCustodyEvent]

    /// Runs `body` in one write transaction, serialized with every other appender: what it
    /// appends through the writer, and reads back, is this transaction's; everything commits
    /// when `body` returns, nothing when it throws. `body` must be re-runnable (LMDB runs it
    /// again after growing its map).
    func write<R>(_ body: (any CustodyWriter) throws -> R) throws -> R

    /// The custody format version an event appended from `draft` is built in: by default
    /// `CustodyStoreVersion`'s rule (v2, or v3 for an agent that states an organization); an
    /// LMDB `CustodyLog` opened with another writer version answers with its own.
    func version(for draft: CustodyDraft) -> CustodyEvent.Version
}

extension CustodyStore {
    public func version(for draft: CustodyDraft) -> CustodyEvent.Version { CustodyStoreVersion.version(for: draft) }

    /// Every event in seq order, read in pages of `page`.
    public func allStoredEvents(page: Int = 10_000) throws -> [StoredCustodyEvent] {
        var out: [StoredCustodyEvent] = []
        while true {
            let next = try storedEvents(after: out.last?.seq ?? 0, limit: page)
            out += next
            if next.count < page { return out }
        }
    }
}

/// One event to append: the objects it names (indexed for `events(forObject:)`) and how to
/// build it once its place is known. `make` may run more than once (a transaction retried)
/// and must derive its result from its arguments only.
public struct CustodyAppend: Sendable {
    public typealias Make = @Sendable (_ seq: UInt64, _ prevHash: [UInt8]) throws -> (stored: [UInt8], hash: [UInt8])

    public var objects: [String]
    public var make: Make

    public init(objects: [String], make: @escaping Make) {
        self.objects = objects
        self.make = make
    }
}

/// One event as stored: its seq, the previous event's hash, its own hash and its stored bytes
/// (canonical bytes ‖ hash).
public struct StoredCustodyEvent: Sendable, Equatable {
    public let seq: UInt64
    public let prevHash: [UInt8]
    public let hash: [UInt8]
    public let stored: [UInt8]

    public init(seq: UInt64, prevHash: [UInt8], hash: [UInt8], stored: [UInt8]) {
        self.seq = seq
        self.prevHash = prevHash
        self.hash = hash
        self.stored = stored
    }
}

/// The last event's seq and hash (0 and 32 zero bytes for an empty log).
public struct CustodyHead: Sendable, Equatable {
    public let seq: UInt64
    public let hash: [UInt8]

    public init(seq: UInt64, hash: [UInt8]) {
        self.seq = seq
        self.hash = hash
    }

    public static let empty = CustodyHead(seq: 0, hash: [UInt8](repeating: 0, count: 32))
}
