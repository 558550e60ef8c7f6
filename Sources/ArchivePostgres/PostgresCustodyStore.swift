import Archive
import Ground
import Postgres

/// The archive's custody log in PostgreSQL, as a `CustodyStore`: `CustodyChain`'s tables, each
/// append under the chain's transaction-scoped advisory lock, so writers on any number of
/// connections and machines queue on it and never reuse or skip a seq (the table's trigger
/// refuses any event that does not continue the head). Each call is one transaction on
/// `connection`; give each thread or worker a store of its own.
public final class PostgresCustodyStore: CustodyStore {
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    @discardableResult
    public func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try connection.write { tx in try events.map { try Self.append($0, in: tx) } }
    }

    /// Appends one event in the caller's transaction (`CustodyChain.append`) and returns it stored.
    @discardableResult
    static func append(_ event: CustodyAppend, in tx: Transaction) throws -> StoredCustodyEvent {
        var made: StoredCustodyEvent?
        try CustodyChain.append(objects: event.objects, in: tx) { seq, prevHash in
            let (stored, hash) = try event.make(seq, prevHash)
            made = StoredCustodyEvent(seq: seq, prevHash: prevHash, hash: hash, stored: stored)
            return (stored, hash)
        }
        guard let made else { throw ArchivePostgresError.custodyEventInvalid("no event was built") }
        return made
    }

    public func head() throws -> CustodyHead {
        let head = try connection.read { tx in try CustodyChain.head(in: tx) }
        return CustodyHead(seq: head.seq, hash: head.hash)
    }

    public func storedEvents(after: UInt64, limit: Int) throws -> [StoredCustodyEvent] {
        try connection.read { tx in try CustodyChain.events(after: after, limit: limit, in: tx) }.map(\.storedEvent)
    }

    public func storedEvents(forObject objectId: String) throws -> [StoredCustodyEvent] {
        try connection.read { tx in try CustodyChain.events(forObject: objectId, in: tx) }.map(\.storedEvent)
    }

    /// The seqs whose links the server finds broken (`CustodyChain.brokenLinks`), one pass.
    public func brokenLinks() throws -> [UInt64] {
        try connection.read { tx in try CustodyChain.brokenLinks(in: tx) }
    }
}

extension CustodyChain.Event {
    /// The event as the `Archive` protocols speak of it.
    public var storedEvent: StoredCustodyEvent {
        StoredCustodyEvent(seq: seq, prevHash: prevHash, hash: hash, stored: stored)
    }
}
