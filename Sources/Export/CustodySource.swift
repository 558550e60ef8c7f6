import Foundation
import Ingest

/// What an export needs from the archive's custody log: append its `replication` event and
/// hand back the chain from the exported records' first events to the new head, every event
/// whole (the exporter redacts what it does not disclose).
public protocol CustodySource {
    /// Appends `draft` durably, then returns the excerpt from the earliest event naming any of
    /// `recordIds` (or the replication event itself) to the head.
    func recordReplication(_ draft: CustodyDraft, recordIds: [String]) throws -> CustodyExcerpt
    /// Appends one event durably (the `digital signature generation` of custody.json, after
    /// the excerpt was signed) and returns it.
    func record(_ draft: CustodyDraft) throws -> CustodyEvent
}

/// The custody log excerpt shipped in `custody.json`.
public struct CustodyExcerpt: Sendable, Equatable {
    public var chain: CustodyChain
    public var replicationSequence: UInt64
    public init(chain: CustodyChain, replicationSequence: UInt64) {
        self.chain = chain
        self.replicationSequence = replicationSequence
    }
}

extension CustodyLog: CustodySource {
    /// Appends the event and reads the excerpt in the same write transaction, so the excerpt
    /// ends exactly at this event even when another process appends right after.
    public func recordReplication(_ draft: CustodyDraft, recordIds: [String]) throws -> CustodyExcerpt {
        try environment.write { txn in
            let appended = try append(draft, in: txn)
            var first = appended.seq
            for id in recordIds {
                if let seq = try events(forObject: id, in: txn).first?.seq { first = min(first, seq) }
            }
            let span = try allEvents(in: txn).filter { $0.seq >= first && $0.seq <= appended.seq }
            return CustodyExcerpt(chain: CustodyChain(events: span, headSequence: appended.seq, headHash: appended.hash),
                                  replicationSequence: appended.seq)
        }
    }

    public func record(_ draft: CustodyDraft) throws -> CustodyEvent {
        try environment.write { txn in try append(draft, in: txn) }
    }
}
