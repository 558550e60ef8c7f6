import Analysis
import ArchiveHandle
import CLI
import Custody
import Ground
import Ingest
import Query
import Verify

extension ExportCommand {
    /// The records to export, with the media analyses of those still `pending`
    /// (`ingest --defer-media`) made first (`analyze`, its events logged): a bag holds the
    /// same reports and thumbnails whichever way its records were ingested. A record whose
    /// analysis fails is exported as it is (pending), named on stderr.
    static func analyzePending(_ records: [IndexedRecord], archive: Archive, agent: CustodyAgent, console: Console) throws -> [IndexedRecord] {
        let pending = records.filter { $0.analyses?.state == .pending }.map(\.recordId)
        guard !pending.isEmpty else { return records }
        var options = Analyzer.Options()
        options.agent = agent
        let analyzer = Analyzer(records: archive.records, blobs: archive.blobs, custody: archive.custodyStore,
                                verifier: CaptureVerifier(signerAnchors: .none, tsaAnchors: .none), options: options)
        var analysed: [ContentID: IndexedRecord] = [:]
        _ = try analyzer.run(pending) { r in
            if let record = r.record { analysed[r.recordId] = record }
            if let e = r.error { console.err("export: analyze \(r.recordId): \(e) (exported with its analyses pending)") }
        }
        return records.map { analysed[$0.recordId] ?? $0 }
    }
}
