import Foundation
import Ingest

/// What an export needs from the archive's custody log: append its `dissemination` event and
/// hand back the chain from the exported records' first events to the new head, every event
/// whole (the exporter redacts what it does not disclose).
public protocol CustodySource {
    /// Appends `draft`, computes the excerpt from the earliest event naming any of `recordIds`
    /// (or the export's event itself) to the head, runs `beforeCommit` with it and with a
    /// function appending further events in the same transaction — the export seals its bag
    /// there and logs the signing of custody.json — and commits only when `beforeCommit`
    /// returned: a throw (or a kill) leaves no event. `beforeCommit` may run more than once
    /// (map growth) and must be re-runnable.
    func recordReplication(_ draft: CustodyDraft, recordIds: [String],
                           beforeCommit: (CustodyExcerpt, _ appendEvent: (CustodyDraft) throws -> CustodyEvent) throws -> Void) throws -> CustodyExcerpt
    /// True when the log holds an event naming the export `externalIdentifier`.
    func hasReplication(of externalIdentifier: String) throws -> Bool
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
    public func recordReplication(_ draft: CustodyDraft, recordIds: [String],
                                  beforeCommit: (CustodyExcerpt, _ appendEvent: (CustodyDraft) throws -> CustodyEvent) throws -> Void) throws -> CustodyExcerpt {
        try environment.write { txn in
            let appended = try append(draft, in: txn)
            var first = appended.seq
            for id in recordIds {
                if let seq = try events(forObject: id, in: txn).first?.seq { first = min(first, seq) }
            }
            let span = try allEvents(in: txn).filter { $0.seq >= first && $0.seq <= appended.seq }
            let excerpt = CustodyExcerpt(chain: CustodyChain(events: span, headSequence: appended.seq, headHash: appended.hash),
                                         replicationSequence: appended.seq)
            try beforeCommit(excerpt) { draft in try self.append(draft, in: txn) }
            return excerpt
        }
    }

    public func hasReplication(of externalIdentifier: String) throws -> Bool {
        // Only the export's own events name its `export` object.
        try !events(forObject: externalIdentifier).isEmpty
    }
}
