import Archive
import Custody
import Foundation
import Ingest
import Query

extension ShowCommand {
    /// The record for a person: a heading line `record <id>`, then sections as `verify` prints
    /// them (`  key:  value` lines) — Record, Integrity, Signer, Time, Sidecars, Files, Custody.
    /// The stored report is read leniently (whatever of it is there is shown); every field of
    /// the record and the report is in `show --json`.
    static func text(_ r: IndexedRecord, _ events: [CustodyEvent], blobs: BlobLocation? = nil, index: String? = nil) -> [String] {
        let report = (try? JSONSerialization.jsonObject(with: r.reportJSON)) as? [String: Any]
        var lines = ["record \(r.recordId)"]
        func section(_ title: String) { lines += ["", title] }
        func add(_ key: String, _ value: String) {
            lines.append("  " + (key + ":").padding(toLength: 21, withPad: " ", startingAt: 0) + value)
        }
        add("kind", r.kind.rawValue)
        add("report id", r.reportId.hex)
        if let blobs { add("blobs in", blobs.description) }
        if let index { add("index in", index) }
        if report == nil { add("report", "the stored report is not JSON (show --json says why)") }

        section("Integrity")
        add("state", r.integrity.rawValue)
        let codes = report?["statusCodes"] as? [String: Any]
        let failures = statusLines(codes?["failure"])
        if failures.isEmpty {
            for code in r.failureCodes { add("failure", code) }
        } else {
            for f in failures { add("failure", f) }
        }
        if failures.isEmpty && r.failureCodes.isEmpty { add("failures", "none") }
        for i in statusLines(codes?["informational"]) { add("note", i) }
        if let passed = codes?["success"] as? [Any] { add("passed", "\(passed.count) check(s) (show --json lists them)") }
        if let ts = report?["timestamp"] as? [String: Any], let state = ts["state"] as? String {
            add("timestamp", state + ((ts["genTime"] as? String).map { " " + $0 } ?? ""))
        }
        for d in (report?["disclosure"] as? [[String: Any]]) ?? [] {
            add("disclosure", "\(d["file"] as? String ?? "?") \(d["profile"] as? String ?? "?") \(d["result"] as? String ?? "?")")
        }
        if let c = report?["streamedChunks"] as? [String: Any], let state = c["state"] as? String {
            add("streamed chunks", state + ((c["root"] as? String).map { " root " + $0 } ?? ""))
        }

        section("Signer")
        add("trust", r.trust?.rawValue ?? "-")
        add("key", r.keyFingerprint?.hex ?? "- (unsigned)")
        if let s = report?["signer"] as? [String: Any] {
            if let v = s["subject"] as? String { add("subject", v) }
            if let v = s["issuer"] as? String { add("issuer", v) }
            if let v = s["algorithm"] as? String { add("algorithm", v) }
        }

        section("Time")
        add("capture time", (r.captureTime ?? "-") + ((report?["timeRung"] as? String).map { " @ " + $0 } ?? ""))
        add("tsa time", r.tsaTime ?? "-")
        add("ingest time", r.ingestTime)

        section("Sidecars")
        let detailed = (report?["sidecars"] as? [[String: Any]]) ?? []
        if r.sidecars.isEmpty && detailed.isEmpty { add("sidecars", "none") }
        for (sink, state) in r.sidecars.sorted(by: { $0.key < $1.key }) {
            var v = state.rawValue
            if let d = detailed.first(where: { $0["sink"] as? String == sink.rawValue }) {
                if let f = d["file"] as? String { v += " " + VerifyCommand.short(f) }
                if let c = d["committedSha256"] as? String { v += " committed " + c }
                if let a = d["actualSha256"] as? String, a != d["committedSha256"] as? String { v += " actual " + a }
                if let notes = d["notes"] as? [String], !notes.isEmpty { v += " [" + notes.joined(separator: ", ") + "]" }
            }
            add(sink.rawValue, v)
        }
        for u in (report?["unreferenced"] as? [String]) ?? [] { add("unreferenced", u) }

        section("Files")
        for v in r.variants {
            add("variant", "\(v.blobId) \(v.size) bytes, first ingested \(v.firstIngested)")
            for p in v.sourcePaths { add("  source", p) }
        }
        for f in r.files { add(f.role.rawValue, "\(f.blobId) \(f.size) bytes \(f.relativePath)") }
        for d in r.derived ?? [] {
            if let blob = d.blobId {
                add("derived " + d.kind, "\(blob) \(d.size ?? 0) bytes \(d.width ?? 0)x\(d.height ?? 0) from \(d.sourceBlobId) by \(d.tool) (not evidence)")
            } else {
                add("derived " + d.kind, "none from \(d.sourceBlobId): \(d.finding ?? "not made")")
            }
        }
        if let a = r.analyses { add("analyses", ShowCommand.analysesText(a)) }

        section("Custody")
        if events.isEmpty { add("events", "none") }
        for e in events {
            lines.append("  \(e.seq) \(e.time) \(e.eventType.rawValue) \(e.outcome.rawValue) \(e.operator)@\(e.host)"
                + ((e.organization ?? "").isEmpty ? "" : " for \(e.organization ?? "")")
                + (e.outcomeDetail.isEmpty ? "" : ": \(e.outcomeDetail)"))
        }
        return lines
    }

    /// `code (explanation)` for each status of a stored report's list.
    static func statusLines(_ list: Any?) -> [String] {
        ((list as? [[String: Any]]) ?? []).compactMap { s in
            guard let code = s["code"] as? String else { return nil }
            return code + ((s["explanation"] as? String).map { " (\($0))" } ?? "")
        }
    }
}
