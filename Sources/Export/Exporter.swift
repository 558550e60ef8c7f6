import Archive
import Crypto
import Custody
import Foundation
import Ground
import Ingest
import Query
import Verify

/// Makes a chain-of-custody bag from archived records.
///
/// Order of work: plan every record's paths (fail before writing anything); find the PDF
/// engine when a PDF is asked for; stream every payload file out of the CAS (re-hashed; a
/// refused blob aborts the export); re-verify each record over its copies in the bag; append
/// the `dissemination` event to the custody log and redact the excerpt's events about other
/// records (`CustodyChain.redacting`); write `custody.json` and its signature `custody.cose`,
/// then log that signature as `digital signature generation`; write `archive-cert.pem`,
/// `custody.jsonld`, `METS.xml`, `PREMIS.xml`, `report.html` (and `report.pdf`); write the manifests and
/// move the bag into place.
public final class Exporter {
    /// Runs the capture verifier over one record's folder in the bag (`data/<recordId>`), its
    /// delivery file given. The CLI passes `CaptureVerifier` with the archive's trust anchors.
    public typealias Reverifier = @Sendable (_ recordFolder: String, _ deliveryFile: String) -> CaptureReport
    /// A small preview image of a delivery file: (MIME type, bytes), nil when none can be made.
    public typealias Thumbnailer = @Sendable (_ deliveryFile: String, _ kind: String) -> (mime: String, bytes: [UInt8])?
    /// Payload files and bytes written so far, and the totals.
    public typealias Progress = (_ files: Int, _ bytes: UInt64, _ totalFiles: Int, _ totalBytes: UInt64) -> Void

    public struct Options: Sendable {
        public var destination: String
        public var caseName: String?
        public var operatorName: String
        public var sourceOrganization = "Exhibit Archive"
        /// The organization the custody events name (`--organization` or
        /// `$EXHIBIT_ORGANIZATION`; nil: not stated, and the events stay v2).
        public var custodyOrganization: String?
        public var tool = "exhibit-archive"
        public var toolVersion: String
        public var host = ProcessInfo.processInfo.hostName
        public var now = Date()
        public var signerAnchors: [String] = []
        public var tsaAnchors: [String] = []
        /// The manifests' algorithms (`--digest`; each writes `manifest-<alg>.txt` and
        /// `tagmanifest-<alg>.txt`).
        public var digests: [BagDigest] = [.sha256]
        /// Keep the ingesting machine's absolute paths in custody.json and the destination in
        /// the custody event (`--include-source-paths`); otherwise they are taken off.
        public var includeSourcePaths = false
        /// The page size report.html prints on (and report.pdf is made with).
        public var paper: ReportPaper = .a4
        /// Also write report.pdf (printed from report.html by headless Chromium).
        public var pdf = false
        /// The Chromium binary (nil: `$EXHIBIT_CHROMIUM`, else `chromium` on PATH).
        public var pdfEngine: String?
        public init(destination: String, caseName: String?, operatorName: String, toolVersion: String) {
            self.destination = destination
            self.caseName = caseName
            self.operatorName = operatorName
            self.toolVersion = toolVersion
        }
    }

    public struct Summary: Sendable, Equatable {
        public var bag: String
        public var externalIdentifier: String
        public var records: Int
        public var files: Int
        public var bytes: UInt64
        /// The export's own custody event (`dissemination`; the name is kept from when exports
        /// were logged as `replication`).
        public var replicationEvent: UInt64?
        /// The `digital signature generation` event logged after custody.json was signed.
        public var signatureEvent: UInt64?
        public var archiveKeyFingerprint: String
        /// Records whose fresh verification differs from the one at ingest.
        public var changedRecords: [String]
        /// The bag's manifest algorithms.
        public var digests: [BagDigest] = [.sha256]
        /// `report.pdf` when one was written.
        public var pdf: String?
    }

    let store: any BlobStore
    let key: ArchiveKey
    public var reverifier: Reverifier?
    public var thumbnailer: Thumbnailer?
    public var custody: (any CustodySource)?
    public var progress: Progress?
    /// Notes each staging folder in the archive while its export runs, so that `gc` and the
    /// next export can remove (or finish) the folder of a killed export.
    public var journal: (any ExportJournalStore)?

    public init(store: any BlobStore, key: ArchiveKey) {
        self.store = store
        self.key = key
    }

    public func export(_ records: [IndexedRecord], options: Options) throws(ExportError) -> Summary {
        guard !records.isEmpty else { throw .noRecords }
        for d in options.digests where !d.isWritable { throw .digest(d.rawValue) }
        var unique: [IndexedRecord] = []
        var seen: Set<ContentID> = []
        for r in records where seen.insert(r.recordId).inserted { unique.append(r) }
        let plans = try unique.map { r throws(ExportError) in
            try PayloadPlan(record: r, primaryBlob: (try? CustodyDocument.decoder().decode(CaptureReport.self, from: r.reportJSON))?.sha256)
        }
        let printer = options.pdf ? try ReportPrinter(engine: options.pdfEngine) : nil
        // The journal names the staging folder before it exists and until the bag is in place
        // (or the folder is gone), so `gc` finds the folder of an export killed at any moment.
        let staging = BagWriter.stagingPath(for: options.destination)
        try journalBegin(staging)
        var keepJournal = false
        defer { if !keepJournal { journalEnd(staging) } }
        let bag = try BagWriter(destination: options.destination, digests: options.digests)
        let totalFiles = plans.reduce(0) { $0 + $1.entries.count }
        let totalBytes = plans.reduce(UInt64(0)) { $0 + $1.entries.reduce(0) { $0 + $1.size } }
        for plan in plans {
            for entry in plan.entries {
                try bag.writePayload(entry, from: store)
                progress?(bag.payloadOxum.files, bag.payloadOxum.bytes, totalFiles, totalBytes)
            }
        }
        let externalIdentifier = "urn:uuid:" + UUID().uuidString.lowercased()
        let time = ISO8601.string(options.now)

        var custodyRecords: [CustodyDocument.RecordCustody] = []
        var changed: [String] = []
        for (record, plan) in zip(unique, plans) {
            let fresh = freshVerification(record, plan, bag)
            if !fresh.changes.isEmpty { changed.append(record.recordId.hex) }
            custodyRecords.append(Self.custody(record, plan, fresh, includeSourcePaths: options.includeSourcePaths))
        }
        let agent = CustodyAgent(operator: options.operatorName, tool: .init(name: options.tool, version: options.toolVersion),
                                 host: options.host, organization: options.custodyOrganization)

        // Thumbnails and pose traces do not depend on the custody chain: made before the
        // replication event's write transaction, which is kept short.
        let thumbs = thumbnails(unique, plans, bag)
        let traces = poseTraces(plans, bag)
        let oxum = bag.payloadOxum
        let bagInfo = BagInfo(
            sourceOrganization: options.sourceOrganization, contactName: options.operatorName,
            externalIdentifier: externalIdentifier,
            externalDescription: "Chain-of-custody export of \(unique.count) record(s); custody.json is signed by custody.cose",
            caseName: options.caseName, baggingDate: options.now,
            softwareAgent: "\(options.tool) \(options.toolVersion)")
        let sealing = Sealing(externalIdentifier: externalIdentifier, time: time, options: options, records: custodyRecords,
                              plans: plans, agent: agent, printer: printer, thumbnails: thumbs, poseTraces: traces, info: bagInfo)

        var excerpt: CustodyExcerpt?
        var signatureEvent: CustodyEvent?
        if let custody {
            var objects = unique.map { CustodyEvent.Object.record($0.recordId) }
            objects += Set(plans.flatMap { $0.entries.map(\.blobId) }).sorted().map { CustodyEvent.Object.blob($0) }
            objects.append(CustodyEvent.Object(kind: "export", id: externalIdentifier))
            let destination = options.includeSourcePaths ? " to \(bag.destination)" : ""
            let draft = CustodyDraft(
                .dissemination, agent: agent, objects: objects, outcome: .success,
                detail: "BagIt export \(externalIdentifier)\(options.caseName.map { " (case \($0))" } ?? "")\(destination): \(unique.count) record(s), \(bag.payloadOxum.files) file(s), \(bag.payloadOxum.bytes) bytes, every blob re-hashed",
                time: options.now)
            // The dissemination event (and the digital signature generation event of
            // custody.json) commit only once the bag is sealed in its staging folder
            // (custody.json needs the event's hash, so the bag is sealed inside the event's
            // transaction): killed before the commit, there is no event and the next export or
            // `gc` removes the folder; killed after it, the folder is a complete bag that they
            // move into place (ExportRecovery).
            do {
                _ = try custody.recordReplication(draft, recordIds: unique.map(\.recordId.hex)) { got, append in
                    let problems = got.chain.check()
                    guard problems.isEmpty else {
                        throw ExportError.custody("the archive's custody log does not verify: " + problems.map(\.detail).joined(separator: "; "))
                    }
                    // Events about other records or settings ship redacted (v2/v3) so the bag
                    // does not reveal them; the hashes and links are unchanged.
                    let shipped = CustodyExcerpt(
                        chain: got.chain.redacting(keepingEventsNaming: Set(unique.map(\.recordId.hex)),
                                                   andSequences: [got.replicationSequence]),
                        replicationSequence: got.replicationSequence)
                    signatureEvent = try withoutActuallyEscaping(append) { append in
                        try seal(bag, sealing, excerpt: shipped, appendEvent: append)
                    }
                    excerpt = shipped
                }
            } catch let e as ExportError {
                throw e
            } catch {
                throw .custody("cannot append the dissemination event: \(error)")
            }
            do { try bag.place() } catch {
                bag.keepStaging()   // complete, and its event committed: `gc` places it later
                keepJournal = true
                throw .notPlaced(staging: bag.staging, destination: bag.destination, reason: error.description)
            }
        } else {
            _ = try seal(bag, sealing, excerpt: nil, appendEvent: nil)
            try bag.place()
        }
        return Summary(bag: bag.destination, externalIdentifier: externalIdentifier, records: unique.count,
                       files: oxum.files, bytes: oxum.bytes, replicationEvent: excerpt?.replicationSequence,
                       signatureEvent: signatureEvent?.seq, archiveKeyFingerprint: key.fingerprint, changedRecords: changed,
                       digests: bag.digests, pdf: printer == nil ? nil : bag.destination + "/" + ReportPrinter.pdfFile)
    }

    /// JSON with sorted keys, pretty-printed, `/` unescaped: the exact bytes that are signed.
    static func encode(_ document: CustodyDocument) throws(ExportError) -> [UInt8] {
        do { return Array(try CustodyDocument.encoder().encode(document)) + [0x0A] } catch {
            throw .io(path: "custody.json", errno: EINVAL)
        }
    }

    /// The delivery file of a record in the staging bag (the first variant).
    static func deliveryFile(_ plan: PayloadPlan, _ bag: BagWriter) -> String? {
        plan.entries.first { $0.role == .media }.map { bag.staging + "/" + $0.bagPath }
    }

    func poseTraces(_ plans: [PayloadPlan], _ bag: BagWriter) -> [String: PoseTracePlot.Trace] {
        var out: [String: PoseTracePlot.Trace] = [:]
        for plan in plans {
            guard let first = plan.entries.first, let media = Self.deliveryFile(plan, bag) else { continue }
            if let t = PoseTracePlot.Trace(deliveryFile: media) { out[first.recordId.hex] = t }
        }
        return out
    }
}
