import Crypto
import Custody
import Foundation
import Ground
import Ingest

extension Exporter {
    /// Everything the tag files need except the custody excerpt.
    struct Sealing {
        let externalIdentifier: String
        let time: String
        let options: Options
        let records: [CustodyDocument.RecordCustody]
        let plans: [PayloadPlan]
        let agent: CustodyAgent
        let printer: ReportPrinter?
        let thumbnails: (images: [String: (mime: String, bytes: [UInt8])], notes: [String: String])
        let poseTraces: [String: PoseTracePlot.Trace]
        let info: BagInfo
    }

    /// Writes custody.json and its signature custody.cose, logs that signature as `digital
    /// signature generation` through `appendEvent` (in the dissemination event's transaction;
    /// nil: no custody log), then archive-cert.pem, custody.jsonld, METS.xml, PREMIS.xml,
    /// report.html (and report.pdf) and the BagIt tag files into the staging folder:
    /// afterwards it is the complete bag. Re-runnable (the transaction may run again when the
    /// map grows). Returns the signature event.
    func seal(_ bag: BagWriter, _ s: Sealing, excerpt: CustodyExcerpt?,
              appendEvent: ((CustodyDraft) throws -> CustodyEvent)?) throws(ExportError) -> CustodyEvent? {
        var records = s.records
        if let excerpt {
            for i in records.indices { records[i].custodyEvents = excerpt.chain.sequences(naming: records[i].recordId.hex) }
        }
        let o = s.options
        let info = CustodyDocument.ExportInfo(
            externalIdentifier: s.externalIdentifier, caseName: o.caseName,
            sourceOrganization: o.sourceOrganization, operatorName: o.operatorName, time: s.time,
            tool: o.tool, toolVersion: o.toolVersion, host: o.host,
            archiveKeyFingerprint: key.fingerprint, replicationEvent: excerpt?.replicationSequence,
            signerAnchors: o.signerAnchors, tsaAnchors: o.tsaAnchors)
        let document = CustodyDocument(export: info, records: records, custodyChain: excerpt?.chain)
        let custodyBytes = try Self.encode(document)
        let signature = try CustodySignature.sign(custodyBytes, with: key)
        try bag.writeTag("custody.json", custodyBytes)
        try bag.writeTag("custody.cose", signature)
        let signatureEvent = try appendEvent.map { append throws(ExportError) in
            try logSignature(custodyBytes, signature, document, agent: s.agent, time: o.now, append: append)
        }
        try bag.writeTag(ArchiveKey.certificateFile, Array(key.certificate.pem.utf8))
        try bag.writeTag("custody.jsonld", CustodyLinkedData.document(document))
        let mets = METSDocument(document: document, plans: s.plans, bag: bag.staging, signatureEvent: signatureEvent)
        try bag.writeTag(METSDocument.fileName, Array(mets.xml().utf8))
        try bag.writeTag(PREMISDocument.fileName, Array(PREMISDocument(mets: mets).xml().utf8))
        var report = CustodyReport(document: document, thumbnails: s.thumbnails.images, poseTraces: s.poseTraces)
        report.thumbnailNotes = s.thumbnails.notes
        report.paper = o.paper
        try bag.writeTag("report.html", Array(report.html().utf8))
        if let printer = s.printer {
            try bag.writeTag(ReportPrinter.pdfFile, try printer.pdf(ofReport: bag.staging + "/report.html", paper: o.paper))
        }
        try bag.seal(info: s.info)
        return signatureEvent
    }

    /// The `digital signature generation` event (PREMIS `dsg`) of custody.json: the exported
    /// records and the export, with the SHA-256 of custody.json and custody.cose and the key.
    /// Not in the signed chain (it follows the signature); METS.xml lists it.
    func logSignature(_ custody: [UInt8], _ signature: [UInt8], _ document: CustodyDocument, agent: CustodyAgent,
                      time: Date, append: (CustodyDraft) throws -> CustodyEvent) throws(ExportError) -> CustodyEvent {
        let objects = document.records.map { CustodyEvent.Object.record($0.recordId) }
            + [CustodyEvent.Object(kind: "export", id: document.export.externalIdentifier)]
        let detail = "custody.json (SHA-256 \(Hex.encode(MessageDigest.sha256(custody)))) of export \(document.export.externalIdentifier) "
            + "signed with archive key \(key.fingerprint): COSE_Sign1 ES256, custody.cose SHA-256 \(Hex.encode(MessageDigest.sha256(signature)))"
        do {
            return try append(CustodyDraft(.digitalSignatureGeneration, agent: agent, objects: objects, outcome: .success,
                                           detail: detail, time: time))
        } catch {
            throw .custody("cannot append the digital signature generation event: \(error)")
        }
    }

    func journalBegin(_ staging: String) throws(ExportError) {
        guard let journal else { return }
        do { try journal.begin(staging: staging) } catch {
            throw .custody("cannot note the export in the archive: \(error)")
        }
    }

    func journalEnd(_ staging: String) {
        try? journal?.end(staging: staging)
    }
}
