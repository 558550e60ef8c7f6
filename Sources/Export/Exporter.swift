import CAS
import Crypto
import Foundation
import Ground
import Ingest
import Query
import Verify

/// Makes a chain-of-custody bag from archived records.
///
/// Order of work: plan every record's paths (fail before writing anything); stream every
/// payload file out of the CAS (re-hashed; a refused blob aborts the export); re-verify each
/// record over its copies in the bag; append the `replication` event to the custody log and
/// redact the excerpt's events about other records (`CustodyChain.redacting`); write
/// `custody.json`, its signature `custody.cose`, `archive-cert.pem`, `custody.jsonld` and
/// `report.html`; write the manifests and move the bag into place.
public final class Exporter {
    /// Runs the capture verifier over one record's folder in the bag (`data/<recordId>`), its
    /// delivery file given. The CLI passes `CaptureVerifier` with the archive's trust anchors.
    public typealias Reverifier = @Sendable (_ recordFolder: String, _ deliveryFile: String) -> CaptureReport
    /// A small preview image of a delivery file: (MIME type, bytes), nil when none can be made.
    public typealias Thumbnailer = @Sendable (_ deliveryFile: String, _ kind: String) -> (mime: String, bytes: [UInt8])?

    public struct Options: Sendable {
        public var destination: String
        public var caseName: String?
        public var operatorName: String
        public var sourceOrganization = "Exhibit Archive"
        public var tool = "exhibit-archive"
        public var toolVersion: String
        public var host = ProcessInfo.processInfo.hostName
        public var now = Date()
        public var signerAnchors: [String] = []
        public var tsaAnchors: [String] = []
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
        public var replicationEvent: UInt64?
        public var archiveKeyFingerprint: String
        /// Records whose fresh verification differs from the one at ingest.
        public var changedRecords: [String]
    }

    let store: ContentStore
    let key: ArchiveKey
    public var reverifier: Reverifier?
    public var thumbnailer: Thumbnailer?
    public var custody: (any CustodySource)?

    public init(store: ContentStore, key: ArchiveKey) {
        self.store = store
        self.key = key
    }

    public func export(_ records: [IndexedRecord], options: Options) throws(ExportError) -> Summary {
        guard !records.isEmpty else { throw .noRecords }
        var unique: [IndexedRecord] = []
        var seen: Set<ContentID> = []
        for r in records where seen.insert(r.recordId).inserted { unique.append(r) }
        let plans = try unique.map { r throws(ExportError) in
            try PayloadPlan(record: r, primaryBlob: (try? CustodyDocument.decoder().decode(CaptureReport.self, from: r.reportJSON))?.sha256)
        }
        let bag = try BagWriter(destination: options.destination)
        for plan in plans {
            for entry in plan.entries { try bag.writePayload(entry, from: store) }
        }
        let externalIdentifier = "urn:uuid:" + UUID().uuidString.lowercased()
        let time = ISO8601.string(options.now)

        var custodyRecords: [CustodyDocument.RecordCustody] = []
        var changed: [String] = []
        for (record, plan) in zip(unique, plans) {
            let fresh = freshVerification(record, plan, bag)
            if !fresh.changes.isEmpty { changed.append(record.recordId.hex) }
            custodyRecords.append(Self.custody(record, plan, fresh))
        }

        var excerpt: CustodyExcerpt?
        if let custody {
            var objects = unique.map { CustodyEvent.Object.record($0.recordId) }
            objects += Set(plans.flatMap { $0.entries.map(\.blobId) }).sorted().map { CustodyEvent.Object.blob($0) }
            objects.append(CustodyEvent.Object(kind: "export", id: externalIdentifier))
            let draft = CustodyDraft(
                .replication,
                agent: CustodyAgent(operator: options.operatorName,
                                    tool: .init(name: options.tool, version: options.toolVersion), host: options.host),
                objects: objects, outcome: .success,
                detail: "BagIt export \(externalIdentifier)\(options.caseName.map { " (case \($0))" } ?? "") to \(bag.destination): \(unique.count) record(s), \(bag.payloadOxum.files) file(s), \(bag.payloadOxum.bytes) bytes, every blob re-hashed",
                time: options.now)
            let got: CustodyExcerpt
            do { got = try custody.recordReplication(draft, recordIds: unique.map(\.recordId.hex)) } catch {
                throw .custody("cannot append the replication event: \(error)")
            }
            let problems = got.chain.check()
            guard problems.isEmpty else {
                throw .custody("the archive's custody log does not verify: " + problems.map(\.detail).joined(separator: "; "))
            }
            // Events about other records or settings ship redacted (v2) so the bag does not
            // reveal them; the hashes and links are unchanged.
            let shipped = CustodyExcerpt(
                chain: got.chain.redacting(keepingEventsNaming: Set(unique.map(\.recordId.hex)),
                                           andSequences: [got.replicationSequence]),
                replicationSequence: got.replicationSequence)
            for i in custodyRecords.indices {
                custodyRecords[i].custodyEvents = shipped.chain.sequences(naming: custodyRecords[i].recordId.hex)
            }
            excerpt = shipped
        }
        let info = CustodyDocument.ExportInfo(
            externalIdentifier: externalIdentifier, caseName: options.caseName,
            sourceOrganization: options.sourceOrganization, operatorName: options.operatorName, time: time,
            tool: options.tool, toolVersion: options.toolVersion, host: options.host,
            archiveKeyFingerprint: key.fingerprint, replicationEvent: excerpt?.replicationSequence,
            signerAnchors: options.signerAnchors, tsaAnchors: options.tsaAnchors)
        let document = CustodyDocument(export: info, records: custodyRecords, custodyChain: excerpt?.chain)
        let custodyBytes = try Self.encode(document)
        try bag.writeTag("custody.json", custodyBytes)
        try bag.writeTag("custody.cose", try CustodySignature.sign(custodyBytes, with: key))
        try bag.writeTag(ArchiveKey.certificateFile, Array(key.certificate.pem.utf8))
        try bag.writeTag("custody.jsonld", CustodyLinkedData.document(document))
        let thumbs = thumbnails(unique, plans, bag)
        let traces = poseTraces(plans, bag)
        var report = CustodyReport(document: document, thumbnails: thumbs.images, poseTraces: traces)
        report.thumbnailNotes = thumbs.notes
        try bag.writeTag("report.html", Array(report.html().utf8))
        let oxum = bag.payloadOxum
        try bag.finish(info: BagInfo(
            sourceOrganization: options.sourceOrganization, contactName: options.operatorName,
            externalIdentifier: externalIdentifier,
            externalDescription: "Chain-of-custody export of \(unique.count) record(s); custody.json is signed by custody.cose",
            caseName: options.caseName, baggingDate: options.now,
            softwareAgent: "\(options.tool) \(options.toolVersion)"))
        return Summary(bag: bag.destination, externalIdentifier: externalIdentifier, records: unique.count,
                       files: oxum.files, bytes: oxum.bytes, replicationEvent: excerpt?.replicationSequence,
                       archiveKeyFingerprint: key.fingerprint, changedRecords: changed)
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

    func freshVerification(_ record: IndexedRecord, _ plan: PayloadPlan, _ bag: BagWriter) -> CustodyDocument.FreshVerification {
        guard let reverifier else {
            return .init(state: "not-run", reason: "no verifier configured", report: nil, changes: [])
        }
        guard let media = Self.deliveryFile(plan, bag) else {
            return .init(state: "not-run", reason: "the record has no delivery file", report: nil, changes: [])
        }
        let folder = bag.staging + "/data/" + record.recordId.hex
        var report = reverifier(folder, media)
        report.relocate(from: bag.staging + "/", to: "")
        let stored = try? CustodyDocument.decoder().decode(CaptureReport.self, from: record.reportJSON)
        var fresh = CustodyDocument.FreshVerification(state: "done", reason: nil, report: report,
                                                      changes: Self.changes(from: stored, to: report))
        for entry in plan.entries where entry.role == .mediaVariant {
            let r = reverifier(folder, bag.staging + "/" + entry.bagPath)
            fresh.variants.append(.init(path: entry.bagPath, sha256: r.sha256, recordId: r.recordId,
                                        integrity: r.integrity, trust: r.signer?.trust,
                                        failureCodes: r.statusCodes.failure.map(\.code)))
        }
        return fresh
    }

    /// What differs between the report at ingest and the fresh one: integrity, trust, sinks.
    static func changes(from old: CaptureReport?, to new: CaptureReport) -> [String] {
        guard let old else { return ["report at ingest unavailable"] }
        var out: [String] = []
        if old.integrity != new.integrity { out.append("integrity: \(old.integrity.rawValue) → \(new.integrity.rawValue)") }
        let ot = old.signer?.trust.rawValue ?? "none", nt = new.signer?.trust.rawValue ?? "none"
        if ot != nt { out.append("trust: \(ot) → \(nt)") }
        let os = Dictionary(old.sidecars.map { ($0.sink, $0.state) }, uniquingKeysWith: { a, _ in a })
        for s in new.sidecars where os[s.sink] != s.state {
            out.append("sidecar \(s.sink.rawValue): \(os[s.sink]?.rawValue ?? "absent") → \(s.state.rawValue)")
        }
        return out
    }

    static func custody(_ r: IndexedRecord, _ plan: PayloadPlan,
                        _ fresh: CustodyDocument.FreshVerification) -> CustodyDocument.RecordCustody {
        let report = try? CustodyDocument.decoder().decode(CaptureReport.self, from: r.reportJSON)
        let sources = Dictionary(r.variants.map { ($0.blobId, $0.sourcePaths) }, uniquingKeysWith: { a, _ in a })
        let files = plan.entries.map { e in
            CustodyDocument.BagFile(path: e.bagPath, role: e.role, sha256: e.blobId, size: e.size,
                                    sourcePaths: e.role == .media || e.role == .mediaVariant ? sources[e.blobId] : nil)
        }
        return .init(recordId: r.recordId, kind: r.kind, integrity: r.integrity, trust: r.trust,
                     keyFingerprint: r.keyFingerprint, captureTime: r.captureTime, tsaTime: r.tsaTime,
                     ingestTime: r.ingestTime, failureCodes: r.failureCodes, sidecars: r.sidecars, files: files,
                     verificationAtIngest: report,
                     verificationAtIngestText: report == nil ? String(decoding: r.reportJSON, as: UTF8.self) : nil,
                     verificationAtExport: fresh, custodyEvents: [])
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

extension CaptureReport {
    /// Rewrites local paths that start with `prefix` (the staging bag) to bag-relative ones.
    mutating func relocate(from prefix: String, to replacement: String) {
        func fix(_ s: String) -> String { s.hasPrefix(prefix) ? replacement + s.dropFirst(prefix.count) : s }
        path = fix(path)
        for i in files.indices { files[i].path = fix(files[i].path) }
        for i in sidecars.indices { sidecars[i].file = sidecars[i].file.map(fix) }
        for i in disclosure.indices { disclosure[i].file = fix(disclosure[i].file) }
    }
}
