import Foundation

/// What an export needs from the archive's custody log: append its `replication` event and
/// hand back the chain from the exported records' events to the new head.
///
/// The Ingest module's `CustodyLog` is adapted to this (`CustodyLog+Export.swift`); keeping it a
/// protocol keeps the bag code independent of how the log is stored.
public protocol CustodySource {
    /// Appends the replication event durably, then returns the excerpt ending at it.
    func recordReplication(_ event: ReplicationEvent) throws -> CustodyExcerpt
}

/// The PREMIS `replication` event an export appends to the custody log.
public struct ReplicationEvent: Sendable, Equatable {
    public var time: Date
    public var operatorName: String
    public var toolVersion: String
    public var host: String
    public var recordIds: [String]
    public var blobIds: [String]
    /// `success` (the event is appended after every payload byte was written and verified).
    public var outcome: String
    /// Human-readable: the bag's External-Identifier and destination.
    public var detail: String
    public init(time: Date, operatorName: String, toolVersion: String, host: String, recordIds: [String],
                blobIds: [String], outcome: String, detail: String) {
        self.time = time
        self.operatorName = operatorName
        self.toolVersion = toolVersion
        self.host = host
        self.recordIds = recordIds
        self.blobIds = blobIds
        self.outcome = outcome
        self.detail = detail
    }
}

/// The custody log excerpt shipped in `custody.json`.
public struct CustodyExcerpt: Sendable, Equatable {
    public var chain: CustodyChain
    /// Record ID → sequences of the events that name it (all present in `chain` with bodies).
    public var eventsByRecord: [String: [UInt64]]
    public var replicationSequence: UInt64
    public init(chain: CustodyChain, eventsByRecord: [String: [UInt64]], replicationSequence: UInt64) {
        self.chain = chain
        self.eventsByRecord = eventsByRecord
        self.replicationSequence = replicationSequence
    }
}
