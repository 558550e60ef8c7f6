import Ground

/// What a `CustodyStore.write` body may do inside its one transaction: append events after the
/// head as this transaction sees it, and read the chain including its own appends. Everything
/// appended commits together when the body returns, or not at all. Export appends its
/// `dissemination` event and reads the excerpt that ends at it through one of these, so the
/// excerpt ends exactly at its own event however many other writers append.
public protocol CustodyWriter {
    /// Appends the events in order after the head (`CustodyStore.append`'s guarantees).
    @discardableResult
    func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent]

    /// Events with seq > `after`, in seq order, at most `limit`, as this transaction sees them.
    func storedEvents(after: UInt64, limit: Int) throws -> [StoredCustodyEvent]

    /// The events naming `objectId`, in seq order, as this transaction sees them.
    func storedEvents(forObject objectId: String) throws -> [StoredCustodyEvent]
}
