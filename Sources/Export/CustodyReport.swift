import Foundation
import Ground
import Ingest
import Verify

/// `report.html`: one self-contained page (inline CSS, images as `data:` URIs, the pose trace
/// as inline SVG; no script, no network, no external file) for a reader who is not an engineer.
///
/// Per record: a thumbnail (`img.thumb`, 240×180 box), the facts, the integrity and sidecar
/// tables at ingest and at export, the capture facts the record states, the signed pose trace
/// plot (`svg.pose-plot`), the files in the bag, the custody events, and what each signal bounds
/// and does not. The page states facts and limits only: it renders no verdict on the capture.
public struct CustodyReport {
    public var document: CustodyDocument
    public var thumbnails: [String: (mime: String, bytes: [UInt8])]
    public var poseTraces: [String: PoseTracePlot.Trace]
    /// Record ID → where its preview came from (stored derived thumbnail or decoded at export).
    public var thumbnailNotes: [String: String] = [:]
    /// The page size of the print layout (`@page size`).
    public var paper: ReportPaper = .a4

    public init(document: CustodyDocument, thumbnails: [String: (mime: String, bytes: [UInt8])],
                poseTraces: [String: PoseTracePlot.Trace]) {
        self.document = document
        self.thumbnails = thumbnails
        self.poseTraces = poseTraces
    }

    static let style = """
    body{font-family:-apple-system,"DejaVu Sans",Arial,sans-serif;margin:24px;color:#1a1a1a;background:#fff;max-width:1100px}
    h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:2px solid #333;padding-bottom:4px}
    h3{font-size:15px;margin:18px 0 6px}
    table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}
    td,th{border:1px solid #bbb;padding:3px 8px;text-align:left;vertical-align:top}
    th{background:#eee}code{font-family:"DejaVu Sans Mono",monospace;font-size:12px;word-break:break-all}
    .record{page-break-before:always}
    .top{display:flex;gap:20px;align-items:flex-start}
    .thumbbox{width:240px;height:180px;border:1px solid #999;display:flex;align-items:center;justify-content:center;background:#f4f4f4;flex:none}
    .thumb{max-width:240px;max-height:180px;display:block}
    .note{color:#444;font-size:13px}
    .state-intact,.state-verified{color:#1e6b32}.state-tampered,.state-mismatch,.state-missing,.state-malformed{color:#a11}
    """

    public func html() -> String {
        let e = document.export
        var h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        h += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">"
        h += "<title>Custody report \(esc(e.caseName ?? e.externalIdentifier))</title><style>\(Self.style)\(printStyle)</style></head><body>\n"
        h += "<h1>Chain-of-custody report\(e.caseName.map { " — case " + esc($0) } ?? "")</h1>\n"
        h += summary()
        h += "<h2 id=\"about\">About this export</h2>\n"
        h += table(nil, [
            ("Bag", code(e.externalIdentifier)), ("Exported by", esc(e.operatorName)), ("Exported at", esc(e.time)),
            ("Source organization", esc(e.sourceOrganization)), ("Tool", esc("\(e.tool) \(e.toolVersion) on \(e.host)")),
            ("Archive key (SHA-256 of public key)", code(e.archiveKeyFingerprint)),
            ("Records", "\(document.records.count)"),
            ("Custody log head", document.custodyChain.map { "event \($0.headSequence), hash " + code($0.headHash) } ?? "no custody log"),
        ])
        h += "<p class=\"note\">This page lists what the archive holds for each record and what was checked. "
        h += "Every signal below was stated by the capturing device and signed into its record; the checks show whether the "
        h += "bytes still match what was signed and what each signal can and cannot bound. The report gives no verdict "
        h += "about the scene or the capture. custody.json in this bag is the signed, machine-readable form of this page; "
        h += "run <code>exhibit-archive verify-export</code> on the bag to check it. The archive key must be confirmed out of band.</p>\n"
        for (index, record) in document.records.enumerated() { h += section(record, index + 1) }
        return h + "</body></html>\n"
    }

    func section(_ r: CustodyDocument.RecordCustody, _ n: Int) -> String {
        let ingest = r.verificationAtIngest
        let fresh = r.verificationAtExport.report
        var h = "<section class=\"record\" id=\"record-\(n)\"><h2>Record \(n): <code>\(esc(r.recordId.hex))</code></h2>\n<div class=\"top\">"
        let id = r.recordId.hex
        if let t = thumbnails[id] {
            h += "<div class=\"thumbbox\"><img class=\"thumb\" id=\"thumb-\(n)\" alt=\"derived preview of the delivery file (not evidence)\" "
            h += "src=\"data:\(t.mime);base64,\(Data(t.bytes).base64EncodedString())\"></div>"
        } else {
            h += "<div class=\"thumbbox\"><span class=\"note\">no preview</span></div>"
        }
        h += "<div>" + table(nil, [
            ("Kind", esc(r.kind.rawValue)),
            ("Preview", esc(thumbnailNotes[id] ?? (thumbnails[id] == nil ? "none" : "derived preview, not evidence"))),
            ("Integrity at ingest", stateSpan(r.integrity.rawValue)),
            ("Integrity at export", fresh.map { stateSpan($0.integrity.rawValue) } ?? esc(r.verificationAtExport.reason ?? "not run")),
            ("Changes since ingest", r.verificationAtExport.changes.isEmpty ? "none" : esc(r.verificationAtExport.changes.joined(separator: "; "))),
            ("Other variants at export", r.verificationAtExport.variants.isEmpty ? "none" : r.verificationAtExport.variants.map { v in
                code(v.path) + ": " + stateSpan(v.integrity.rawValue) + (v.failureCodes.isEmpty ? "" : " (" + esc(v.failureCodes.joined(separator: ", ")) + ")")
            }.joined(separator: "<br>")),
            ("Signer key", r.keyFingerprint.map { code($0.hex) } ?? "unsigned"),
            ("Signer", esc((fresh ?? ingest)?.signer.map { "\($0.subject) (issuer \($0.issuer))" } ?? "—")),
            ("Trust", esc(r.trust?.rawValue ?? "—")),
            ("Capture time (signed)", esc(r.captureTime ?? "not stated") + ((fresh ?? ingest)?.timeRung.map { " (rung: \(esc($0)))" } ?? "")),
            ("Time-stamp authority time", esc(r.tsaTime ?? "none")),
            ("Ingested", esc(r.ingestTime)),
        ]) + "</div></div>\n"
        h += "<h3>Integrity checks</h3>" + statusTable(ingest, fresh)
        h += "<h3>Evidence files (sidecars)</h3>" + sidecarTable(r, fresh ?? ingest)
        h += "<h3>Capture facts stated by the device</h3>" + factsTable(fresh ?? ingest)
        h += "<h3>Signed pose trace</h3>"
        if let trace = poseTraces[id] {
            h += "<p class=\"note\">Gyroscope x/y/z (rad/s), \(trace.gyro.count) samples at \(PoseTracePlot.f(trace.rateHz)) Hz, "
            h += "time in milliseconds from the shutter. Drawn for a person to compare with the motion in the footage.</p>"
            h += PoseTracePlot.svg(trace, id: "pose-\(n)")
        } else {
            h += "<p class=\"note\">The record carries no signed pose trace that could be read.</p>"
        }
        h += "<h3>Files in this bag</h3><table><tr><th>Path</th><th>Role</th><th>Bytes</th><th>SHA-256</th></tr>"
        for f in r.files {
            h += "<tr><td>\(code(f.path))</td><td>\(esc(f.role.rawValue))</td><td>\(f.size)</td><td>\(code(f.sha256.hex))</td></tr>"
        }
        h += "</table><h3>Custody events</h3>"
        h += eventsTable(r)
        h += "<h3>What each signal bounds — and what it does not</h3><table><tr><th>Signal</th><th>Bounds</th><th>Does not bound</th></tr>"
        for s in SignalLimits.all {
            h += "<tr><td>\(esc(s.signal))</td><td>\(esc(s.bounds))</td><td>\(esc(s.doesNotBound))</td></tr>"
        }
        return h + "</table></section>\n"
    }

    func statusTable(_ ingest: CaptureReport?, _ fresh: CaptureReport?) -> String {
        var h = "<table><tr><th>Check</th><th>At ingest</th><th>At export</th></tr>"
        func codes(_ r: CaptureReport?, _ pick: (CaptureReport.StatusCodes) -> [C2PAReport.Status]) -> String {
            guard let r else { return "—" }
            let list = pick(r.statusCodes).map(\.code)
            return list.isEmpty ? "none" : list.map(code).joined(separator: "<br>")
        }
        h += "<tr><td>Integrity</td><td>\(ingest.map { stateSpan($0.integrity.rawValue) } ?? "—")</td><td>\(fresh.map { stateSpan($0.integrity.rawValue) } ?? "—")</td></tr>"
        h += "<tr><td>Failures</td><td>\(codes(ingest) { $0.failure })</td><td>\(codes(fresh) { $0.failure })</td></tr>"
        h += "<tr><td>Informational</td><td>\(codes(ingest) { $0.informational })</td><td>\(codes(fresh) { $0.informational })</td></tr>"
        h += "<tr><td>Passed</td><td>\(codes(ingest) { $0.success })</td><td>\(codes(fresh) { $0.success })</td></tr>"
        h += "<tr><td>Time stamp</td><td>\(esc(ingest?.timestamp.state ?? "—"))</td><td>\(esc(fresh?.timestamp.state ?? "—"))</td></tr>"
        return h + "</table>"
    }

    func sidecarTable(_ r: CustodyDocument.RecordCustody, _ report: CaptureReport?) -> String {
        var h = "<table><tr><th>Sink</th><th>State</th><th>Committed SHA-256</th><th>SHA-256 of the file</th><th>File</th></tr>"
        if let report, !report.sidecars.isEmpty {
            for s in report.sidecars {
                h += "<tr><td>\(esc(s.sink.rawValue))</td><td>\(stateSpan(s.state.rawValue))</td><td>\(s.committedSha256.map(\.hex).map(code) ?? "—")</td>"
                h += "<td>\(s.actualSha256.map(\.hex).map(code) ?? "—")</td><td>\(s.file.map(code) ?? "—")</td></tr>"
            }
        } else {
            for (sink, state) in r.sidecars.sorted(by: { $0.key < $1.key }) {
                h += "<tr><td>\(esc(sink.rawValue))</td><td>\(stateSpan(state.rawValue))</td><td>—</td><td>—</td><td>—</td></tr>"
            }
        }
        return h + "</table>"
    }

    func factsTable(_ report: CaptureReport?) -> String {
        guard let c = report?.context else { return "<p class=\"note\">The record states no capture context.</p>" }
        var rows: [(String, String)] = []
        func add(_ k: String, _ v: String?) { if let v { rows.append((k, esc(v))) } }
        add("App version", c.appVersion)
        add("Shutter-to-signature latency", c.captureToSignatureMs.map { "\($0) ms" })
        add("Sensor interval coefficient of variation", c.sensorIntervalCv.map { String(format: "%.4f", $0) })
        add("Pose trace", c.poseTrace.map { "\($0.count) samples at \($0.rateHz) Hz, from \($0.startOffsetMs) ms" })
        add("Mains frequency", c.mainsHz.map { "\($0) Hz" + (c.mainsHzNote.map { " (\($0))" } ?? "") })
        add("Exposure", c.exposureDurationS.map { "\($0) s" })
        add("Lens", c.lens)
        add("Depth", c.depth)
        add("Second-view baseline", c.secondViewBaselineMm.map { "\($0) mm" })
        add("Time zone", c.timeZone)
        if let s = report?.streamedChunks {
            add("Streamed chunk commitment", s.state + (s.root.map { ", root \($0)" } ?? ""))
        }
        return rows.isEmpty ? "<p class=\"note\">The record states no capture context.</p>" : table(nil, rows)
    }

    func eventsTable(_ r: CustodyDocument.RecordCustody) -> String {
        guard let chain = document.custodyChain else { return "<p class=\"note\">No custody log.</p>" }
        var h = "<table><tr><th>#</th><th>Event</th><th>Chain hash</th></tr>"
        for seq in r.custodyEvents {
            guard let e = chain.event(seq) else { continue }
            let summary = "\(e.eventType.rawValue), \(e.time), by \(e.operator) on \(e.host) (\(e.tool.name) \(e.tool.version)): \(e.outcome.rawValue)"
                + (e.outcomeDetail.isEmpty ? "" : " — \(e.outcomeDetail)")
            h += "<tr><td>\(seq)</td><td>\(esc(summary))</td><td>\(code(e.hash))</td></tr>"
        }
        let counts = chain.redactionCounts
        let others = counts.redacted > 0
            ? " The chain also holds \(counts.redacted) event(s) about other records or archive settings, shipped "
                + "redacted: only their position and hashes, so the chain can be checked without revealing them."
            : ""
        return h + "</table><p class=\"note\">Each event's hash chains to the next up to the log head "
            + "(event \(chain.headSequence)); custody.json carries the chain so it can be recomputed.\(others)</p>"
    }

    func table(_ header: [String]?, _ rows: [(String, String)]) -> String {
        var h = "<table>"
        if let header { h += "<tr>" + header.map { "<th>\(esc($0))</th>" }.joined() + "</tr>" }
        for (k, v) in rows { h += "<tr><th>\(esc(k))</th><td>\(v)</td></tr>" }
        return h + "</table>"
    }

    func stateSpan(_ s: String) -> String { "<span class=\"state-\(esc(s))\">\(esc(s))</span>" }
    func code(_ s: String) -> String { "<code>\(esc(s))</code>" }

    /// HTML text escaping (`&`, `<`, `>`, `"`, `'`).
    func esc(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
