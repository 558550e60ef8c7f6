import Foundation
import Ground

/// What a `RecordStore.write` body may do inside its one transaction: read a record as the
/// transaction sees it (its own earlier puts included), put records and reports, append custody
/// events. Everything the body did commits together or not at all. Ingest's writer commits a
/// batch of captures through one of these (after their blobs are durable in the blob store).
public protocol RecordWriter<Record> {
    associatedtype Record: Sendable

    /// The record with this ID in this transaction (re-hashed), or nil.
    func get(recordId: ContentID) throws -> Record?

    /// Inserts or replaces `record` (`RecordStore.put`'s semantics).
    func put(_ record: Record) throws

    /// Stores a report by its SHA-256 (put-if-absent); returns its ID.
    @discardableResult
    func putReport(_ bytes: Data) throws -> ContentID

    /// Appends the events in order after the chain's head as this transaction sees it.
    @discardableResult
    func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent]
}
