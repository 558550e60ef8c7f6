import Archive
import Custody
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

/// Any archive's custody log (`CustodyStore`: LMDB's `CustodyLog`, PostgreSQL's store) as an
/// export's custody source: the event is appended and the excerpt read in one
/// `CustodyStore.write` transaction, so the excerpt ends exactly at this event even when
/// another process appends right after.
public struct StoredCustodySource: CustodySource {
    public let store: any CustodyStore

    public init(_ store: any CustodyStore) {
        self.store = store
    }

    public func recordReplication(_ draft: CustodyDraft, recordIds: [String],
                                  beforeCommit: (CustodyExcerpt, _ appendEvent: (CustodyDraft) throws -> CustodyEvent) throws -> Void) throws -> CustodyExcerpt {
        let store = self.store
        let replication = try CustodyAppend(draft, for: store)
        return try store.write { writer in
            guard let appended = try writer.append([replication]).first else {
                throw CustodyError.malformedEvent("the export's event was not appended")
            }
            let event = try appended.event
            var first = appended.seq
            for id in recordIds {
                if let seq = try writer.storedEvents(forObject: id).first?.seq { first = min(first, seq) }
            }
            // Events that do not parse are left out, as the log's listing leaves them out.
            var span: [CustodyEvent] = []
            var after = first - 1
            while after < appended.seq {
                let page = try writer.storedEvents(after: after, limit: 10_000)
                guard let last = page.last else { break }
                span += page.filter { $0.seq <= appended.seq }.compactMap { try? $0.event }
                after = last.seq
            }
            let excerpt = CustodyExcerpt(chain: CustodyChain(events: span, headSequence: appended.seq, headHash: event.hash),
                                         replicationSequence: appended.seq)
            try beforeCommit(excerpt) { draft in
                guard let more = try writer.append([try CustodyAppend(draft, for: store)]).first else {
                    throw CustodyError.malformedEvent("an export event was not appended")
                }
                return try more.event
            }
            return excerpt
        }
    }

    public func hasReplication(of externalIdentifier: String) throws -> Bool {
        // Only the export's own events name its `export` object.
        try !store.storedEvents(forObject: externalIdentifier).isEmpty
    }
}
