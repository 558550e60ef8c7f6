import Archive
import Custody
import Foundation
import Ground
import Ingest
import Query
import Verify

/// The media analyses as a stage of their own (issue 13): media facts, the streamed-chunk
/// recomputation, parallax and the thumbnail of stored records, made from the archive's stored
/// blobs (never the dump) on `jobs` worker threads, and committed by one writer: per record
/// its analysed report, its thumbnail (a derived blob), `analyses = done` with the tool and
/// library versions, its index entries and a PREMIS `metadata extraction` event — the record
/// and its event in one transaction, so a record killed mid-way is either still pending (made
/// again by the next run) or done (skipped: resumable, idempotent).
///
/// Everything goes through the `Archive` target's protocols — blobs through `BlobStore`,
/// records and their events through `RecordStore.put(_:custody:)` — so the same stage runs over
/// LMDB or S3 blobs. Over `LMDBRecordStore` the writer commits several records per transaction
/// (`Analyzer+Commit.swift`).
public final class Analyzer: Sendable {
    public struct Options: Sendable {
        /// Analysis workers (default: the core count).
        public var jobs = ProcessInfo.processInfo.activeProcessorCount
        /// Who analyses (custody events); its tool is what `analyses.tool` records.
        public var agent = CustodyAgent.current()
        /// Most records per write transaction (LMDB).
        public var batchRecords = 64
        /// Blobs up to this size are read into memory; larger ones by range.
        public var memoryLimit: Int64 = 4 << 20
        public init() {}
    }

    public let records: any RecordStore<IndexedRecord>
    public let blobs: any BlobStore
    public let custody: any CustodyStore
    public let verifier: CaptureVerifier
    public let options: Options

    public init(records: any RecordStore<IndexedRecord>, blobs: any BlobStore, custody: any CustodyStore,
                verifier: CaptureVerifier, options: Options = Options()) {
        self.records = records
        self.blobs = blobs
        self.custody = custody
        self.verifier = verifier
        self.options = options
    }

    /// `analyses.tool` of what this analyzer makes: `exhibit-archive <version>`.
    public var tool: String { "\(options.agent.tool.name) \(options.agent.tool.version)" }

    /// Whether `record` needs analysing: `pending`, or done by another tool version. A record
    /// without a state (`--no-media`, older records) is left alone.
    public func needsAnalysis(_ record: IndexedRecord) -> Bool {
        switch record.analyses?.state {
        case .pending?: true
        case .done?: record.analyses?.tool != tool
        case nil: false
        }
    }

    /// The records `filters` select (their union; one empty filter: every record) that need
    /// analysing, IDs ascending: the `pending` ones from the index, and those `done` by another
    /// tool version (read to compare); a filter naming one state looks at that state only.
    public func select(_ filters: [RecordFilter] = [RecordFilter()]) throws -> [ContentID] {
        var pending = Set<ContentID>(), done = Set<ContentID>()
        for f in filters {
            // A filter that names a state keeps it (`--analyses done`: only records done by
            // another version); otherwise both states are looked at.
            for state in f.analyses.map({ [$0] }) ?? AnalysisState.allCases {
                var g = f
                g.analyses = state
                let r = try records.query(g)
                if state == .pending { pending.formUnion(r.matches + r.indeterminate) } else { done.formUnion(r.matches + r.indeterminate) }
            }
        }
        let stale = try records.records(Array(done.subtracting(pending)).sorted()) { _, _ in }
            .filter { needsAnalysis($0) }.map(\.recordId)
        return pending.union(stale).sorted()
    }

    /// Analyses the records `ids` (those still needing it when their turn comes), calling
    /// `onResult` on the calling thread as each commits. Throws only when the archive cannot
    /// be written; a record that cannot be analysed is a result with its error and stays pending.
    public func run(_ ids: [ContentID], onResult: (AnalysisResult) -> Void) throws -> AnalysisSummary {
        let start = Date()
        var summary = AnalysisSummary()
        let queue = AnalysisQueue(count: ids.count, limit: max(2 * options.batchRecords, 4 * options.jobs))
        let workers = max(1, min(options.jobs, ids.count))
        let finished = DispatchGroup()
        for _ in 0..<workers {
            finished.enter()
            let thread = Thread { [self] in
                defer { finished.leave() }
                while let i = queue.claim() { queue.deliver(prepare(ids[i])) }
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        defer {
            queue.cancel()
            finished.wait()
        }
        var taken = 0
        while taken < ids.count {
            let batch = queue.take(upTo: options.batchRecords)
            taken += batch.count
            for r in try commit(batch) {
                summary.count(r)
                onResult(r)
            }
        }
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }
}
