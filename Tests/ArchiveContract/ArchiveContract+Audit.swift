import Archive
import Foundation
import Ground
import Query
import Testing

extension ArchiveContract {
    /// `RecordStore.audit`, the record half of the `audit` command: every record is checked;
    /// a report overwritten and a body byte flipped behind the store's back are each named
    /// once, in ID order, with `index.record.damaged`, the record ID in the text and the report
    /// the body names; an intact store audits clean; healing the report clears its entry.
    public static func auditNamesDamage(_ s: ArchiveSubject) throws {
        #expect(try s.records.audit().checked == 0)
        let records = (0..<12).map { RecordSamples.record($0, seed: 53) }
        for r in records { try s.records.put(r) }
        let clean = try s.records.audit()
        #expect(clean.checked == records.count && clean.damaged.isEmpty)

        let byId = records.sorted { $0.recordId < $1.recordId }
        let reportHurt = byId[3], bodyHurt = byId[8]
        try s.overwriteReport(reportHurt.reportId, Array("{\"record\":\"forged\"}".utf8))
        try s.damageBody(bodyHurt.recordId)
        let audit = try s.records.audit()
        #expect(audit.checked == records.count)
        #expect(audit.damaged.map(\.recordId) == [reportHurt.recordId, bodyHurt.recordId])
        #expect(audit.damaged.map(\.reportId) == [reportHurt.reportId, bodyHurt.reportId])
        for d in audit.damaged {
            #expect(d.error.statusCode == StatusCode.indexRecordDamaged)
            #expect("\(d.error)".contains(d.recordId.hex))
        }

        try s.overwriteReport(reportHurt.reportId, Array(reportHurt.reportJSON))
        #expect(try s.records.audit().damaged.map(\.recordId) == [bodyHurt.recordId])
    }
}
