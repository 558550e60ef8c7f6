import Foundation
import Ingest

extension Exporter {
    /// Everything the tag files need except the custody excerpt.
    struct Sealing {
        let externalIdentifier: String
        let time: String
        let options: Options
        let records: [CustodyDocument.RecordCustody]
        let thumbnails: (images: [String: (mime: String, bytes: [UInt8])], notes: [String: String])
        let poseTraces: [String: PoseTracePlot.Trace]
        let info: BagInfo
    }

    /// Writes custody.json, custody.cose, archive-cert.pem, custody.jsonld, report.html and the
    /// BagIt tag files into the staging folder: afterwards it is the complete bag. Re-runnable
    /// (the replication event's transaction may run again when the map grows).
    func seal(_ bag: BagWriter, _ s: Sealing, excerpt: CustodyExcerpt?) throws(ExportError) {
        var records = s.records
        if let excerpt {
            for i in records.indices { records[i].custodyEvents = excerpt.chain.sequences(naming: records[i].recordId) }
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
        try bag.writeTag("custody.json", custodyBytes)
        try bag.writeTag("custody.cose", try CustodySignature.sign(custodyBytes, with: key))
        try bag.writeTag(ArchiveKey.certificateFile, Array(key.certificate.pem.utf8))
        try bag.writeTag("custody.jsonld", CustodyLinkedData.document(document))
        var report = CustodyReport(document: document, thumbnails: s.thumbnails.images, poseTraces: s.poseTraces)
        report.thumbnailNotes = s.thumbnails.notes
        try bag.writeTag("report.html", Array(report.html().utf8))
        try bag.seal(info: s.info)
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
