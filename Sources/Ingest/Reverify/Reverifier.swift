import Archive
import ArchiveHandle
import Custody
import Foundation
import Ground
import Query
import Verify

/// Re-evaluates stored records from the stored bytes against today's anchors: each record's
/// first variant and its files become a `CaptureSnapshot` read straight from the CAS
/// (`Reverifier+Snapshot.swift`: each blob checked against its ID first, then read by range;
/// presence and listings from the record's stored paths; nothing is written to disk), verified
/// again with those IDs as digests (nothing is hashed twice), and the record's verification
/// fields, trust and index entries are replaced; a `validation` event (and `digital signature validation` when
/// signed) is logged for each record in the same transaction.
public struct Reverifier: Sendable {
    public let archive: Archive
    public let verifier: CaptureVerifier
    public let agent: CustodyAgent

    public init(archive: Archive, verifier: CaptureVerifier, agent: CustodyAgent) {
        self.archive = archive
        self.verifier = verifier
        self.agent = agent
    }

    /// One record re-verified.
    public struct Result: Sendable {
        public var recordId: ContentID
        public var before: (integrity: Integrity, trust: Trust?)
        public var after: (integrity: Integrity, trust: Trust?)
        public var report: CaptureReport?
        /// Why it could not be re-verified (`cas.…` codes when a stored blob is damaged or gone).
        public var error: String?
        /// Sink states before and after (the record's rolled-up states).
        public var sidecarsBefore: [SidecarSink: SidecarState] = [:]
        public var sidecarsAfter: [SidecarSink: SidecarState] = [:]
        /// Integrity, trust or a sink state differs: what `reverify` counts as changed.
        public var changed: Bool {
            before.integrity != after.integrity || before.trust != after.trust || sidecarsBefore != sidecarsAfter
        }
    }

    /// Re-verifies the records `ids` (all records when nil), calling `onResult` for each. A
    /// record whose stored bytes no longer match their SHA-256 (`index.record.damaged`) is not
    /// re-verified and nothing is written for it: it is passed to `onRefused` and the others go
    /// on. Without `onRefused`, the first such refusal is thrown once every other record is done.
    public func run(_ ids: [ContentID]?, onRefused: ((ContentID, QueryError) -> Void)? = nil,
                    onResult: (Result) -> Void) throws {
        let all = try ids ?? archive.records.query(RecordFilter()).matches
        var firstRefusal: QueryError?
        for id in all {
            let record: IndexedRecord?
            do { record = try archive.records.get(recordId: id) } catch let error as QueryError where error.code == StatusCode.indexRecordDamaged {
                if let onRefused { onRefused(id, error) } else if firstRefusal == nil { firstRefusal = error }
                continue
            }
            guard let record else { continue }
            onResult(try reverify(record))
        }
        if let firstRefusal { throw firstRefusal }
    }

    func reverify(_ record: IndexedRecord) throws -> Result {
        var result = Result(recordId: record.recordId, before: (record.integrity, record.trust),
                            after: (record.integrity, record.trust), report: nil, error: nil,
                            sidecarsBefore: record.sidecars, sidecarsAfter: record.sidecars)
        guard let variant = record.variants.first else {
            result.error = "reverify.noBytes: the record has no stored delivery file"
            return result
        }
        let snapshot: CaptureSnapshot
        do { snapshot = try self.snapshot(of: record, variant: variant) } catch {
            result.error = "\(error)"
            return result
        }
        var report = verifier.verify(snapshot)
        let stored = try? CaptureReport.decode(record.reportJSON)
        report.path = stored?.path ?? report.path
        if let stored { report.keepUnstoredSymlinkNotes(of: stored) }
        let now = CustodyEvent.timestamp(Date())
        let fresh = try IndexedRecord(report: report, recordId: record.recordId, sourcePath: "", ingestTime: now)
        var updated = record
        updated.adoptVerification(of: fresh)
        let drafts = events(report, recordId: record.recordId, reportId: updated.reportId, before: record)
        let appends = try archive.custodyStore.appends(drafts)
        try archive.records.write { writer in
            try writer.put(updated)
            try writer.append(appends)
        }
        result.after = (updated.integrity, updated.trust)
        result.sidecarsAfter = updated.sidecars
        result.report = report
        return result
    }

    /// The events of one record re-verified; the validation event names the new stored report.
    func events(_ r: CaptureReport, recordId: ContentID, reportId: ContentID, before: IndexedRecord) -> [CustodyDraft] {
        var out: [CustodyDraft] = []
        if let s = r.signer {
            out.append(CustodyDraft(.digitalSignatureValidation, agent: agent, objects: [.record(recordId)],
                                    outcome: r.integrity == .intact && s.trust == .trusted ? .success : .warning,
                                    detail: "reverify: signer \(s.keyFingerprint) \(s.trust.rawValue) (was \(before.trust?.rawValue ?? "-")); timestamp \(r.timestamp.state)"))
        }
        out.append(CustodyDraft(.validation, agent: agent, objects: [.record(recordId), .report(reportId)] + (r.sha256.map { [.blob($0)] } ?? []),
                                outcome: r.needsAttention ? .failure : .success,
                                detail: "reverify from stored bytes: integrity \(r.integrity.rawValue) (was \(before.integrity.rawValue))"))
        return out
    }
}
