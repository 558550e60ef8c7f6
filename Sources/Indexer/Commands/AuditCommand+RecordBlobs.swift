import Archive
import ArchiveHandle
import Ground
import Ingest
import Query

/// A record that names a blob the archive does not hold (`index.record.blobMissing`): what a
/// `gc` gone wrong, a ledger that lost an entry or a blob deleted from the medium would leave.
struct RecordBlobMissing: NamedError, CustomStringConvertible, Sendable {
    let recordId: ContentID
    let blob: ContentID
    /// What the record stores it as: `variant`, a file role and path, or `derived <kind>`.
    let role: String
    var statusCode: String { StatusCode.indexRecordBlobMissing }
    var description: String {
        "\(statusCode): record \(recordId.hex) names blob \(blob.hex) (\(role)), which the archive does not hold"
    }
}

extension AuditCommand {
    /// Every blob each record names — its delivery-file variants, its stored files and its
    /// derived blobs — looked up in the archive's blob store (for blobs in S3, the archive's
    /// ledger: the blob half of the audit fetches the objects). Records are read in pages of
    /// `page` (each re-hashed as every read is; a damaged one is already named by the record
    /// audit and skipped here). One `RecordDamage` per missing blob, in record-ID order.
    static func missingBlobs(in archive: Archive, page: Int = 512) throws -> [RecordDamage] {
        let ids = try archive.records.query(RecordFilter()).matches
        var missing: [RecordDamage] = []
        var start = 0
        while start < ids.count {
            let slice = Array(ids[start..<min(start + page, ids.count)])
            start += slice.count
            for record in try archive.records.records(slice, damaged: { _, _ in }) {
                var named: [(ContentID, String)] = record.variants.map { ($0.blobId, "variant") }
                named += record.files.map { ($0.blobId, "\($0.role.rawValue) \($0.relativePath)") }
                named += (record.derived ?? []).compactMap { d in d.blobId.map { ($0, "derived \(d.kind)") } }
                var seen = Set<ContentID>()
                for (blob, role) in named where seen.insert(blob).inserted {
                    if try !archive.blobs.holds(blob) {
                        missing.append(RecordDamage(recordId: record.recordId, reportId: record.reportId,
                                                    error: RecordBlobMissing(recordId: record.recordId, blob: blob, role: role)))
                    }
                }
            }
        }
        return missing
    }
}

extension AuditCommand {
    /// The IDs of `damaged`'s records, each once, in order.
    static func uniqueRecords(_ damaged: [RecordDamage]) -> [ContentID] {
        var seen = Set<ContentID>()
        return damaged.map(\.recordId).filter { seen.insert($0).inserted }
    }
}
