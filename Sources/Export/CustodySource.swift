import Foundation
import Ingest

/// What an export needs from the archive's custody log: append its `replication` event and
/// hand back the chain from the exported records' first events to the new head.
public protocol CustodySource {
    /// Appends `draft` durably, then returns the excerpt from the earliest event naming any of
    /// `recordIds` (or the replication event itself) to the head.
    func recordReplication(_ draft: CustodyDraft, recordIds: [String]) throws -> CustodyExcerpt
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
    public func recordReplication(_ draft: CustodyDraft, recordIds: [String]) throws -> CustodyExcerpt {
        let appended = try environment.write { txn in try append(draft, in: txn) }
        return try environment.read { txn in
            var first = appended.seq
            for id in recordIds {
                if let seq = try events(forObject: id, in: txn).first?.seq { first = min(first, seq) }
            }
            let head = try head(in: txn)
            let span = try allEvents(in: txn).filter { $0.seq >= first && $0.seq <= head.seq }
            return CustodyExcerpt(chain: CustodyChain(events: span, headSequence: head.seq, headHash: head.hash),
                                  replicationSequence: appended.seq)
        }
    }
}
