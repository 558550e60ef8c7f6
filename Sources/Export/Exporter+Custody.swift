import Foundation
import Ground
import Ingest
import Query
import Verify

extension Exporter {
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

    /// The record's entry of custody.json. Without `includeSourcePaths` the report stored at
    /// ingest has the ingesting machine's folders taken off its paths (`ingestRelative`).
    static func custody(_ r: IndexedRecord, _ plan: PayloadPlan, _ fresh: CustodyDocument.FreshVerification,
                        includeSourcePaths: Bool) -> CustodyDocument.RecordCustody {
        var report = try? CustodyDocument.decoder().decode(CaptureReport.self, from: r.reportJSON)
        let sources = Dictionary(r.variants.map { ($0.blobId, $0.sourcePaths) }, uniquingKeysWith: { a, _ in a })
        if !includeSourcePaths, let stored = report {
            report = stored.ingestRelative(sourcePaths: r.variants.flatMap(\.sourcePaths))
        }
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

}

extension CaptureReport {
    /// Rewrites local paths that start with `prefix` (the staging bag) to bag-relative ones.
    mutating func relocate(from prefix: String, to replacement: String) {
        func fix(_ s: String) -> String { s.hasPrefix(prefix) ? replacement + s.dropFirst(prefix.count) : s }
        path = fix(path)
        for i in files.indices { files[i].path = fix(files[i].path) }
        for i in sidecars.indices { sidecars[i].file = sidecars[i].file.map(fix) }
        for i in disclosure.indices { disclosure[i].file = fix(disclosure[i].file) }
        if let m = media { media = m.map { var f = $0; f.file = fix(f.file); return f } }
    }

    /// The report with the ingesting machine's folders taken off its paths: the prefix before
    /// the dump-relative source path (`dump/captures/<id>/IMG_1.jpg`, as `sourcePaths` give it)
    /// when one matches the report's path, else the capture folder itself. Paths that do not
    /// start with it are left alone; a path still absolute afterwards keeps only its last
    /// component (`…/name`), so no folder of the ingesting machine reaches the bag.
    func ingestRelative(sourcePaths: [String]) -> CaptureReport {
        var copy = self
        let folder = (path as NSString).deletingLastPathComponent + "/"
        let prefix = sourcePaths.first { path.hasSuffix("/" + $0) }.map { String(path.dropLast($0.utf8.count)) } ?? folder
        guard prefix.hasPrefix("/") else { return copy }
        copy.relocate(from: prefix, to: "")
        func strip(_ s: String) -> String { s.hasPrefix("/") ? "…/" + (s as NSString).lastPathComponent : s }
        copy.path = strip(copy.path)
        for i in copy.files.indices { copy.files[i].path = strip(copy.files[i].path) }
        for i in copy.sidecars.indices { copy.sidecars[i].file = copy.sidecars[i].file.map(strip) }
        for i in copy.disclosure.indices { copy.disclosure[i].file = strip(copy.disclosure[i].file) }
        return copy
    }
}
