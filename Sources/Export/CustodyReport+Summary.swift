import Foundation
import Ground
import Verify

extension CustodyReport {
    /// The page's opening, for a reader who files it: the case and the bag, the records counted
    /// by integrity and by sidecar state, a table of every record linking to its section, and
    /// the table of contents.
    func summary() -> String {
        let e = document.export
        let records = document.records
        var h = "<section class=\"summary\" id=\"summary\"><h2>Summary</h2>\n"
        h += table(nil, [
            ("Case", esc(e.caseName ?? "not named")),
            ("Bag (External-Identifier)", code(e.externalIdentifier)),
            ("Exported", esc("\(e.time) by \(e.operatorName) for \(e.sourceOrganization)")),
            ("Records", "\(records.count)"),
            ("Files in the bag", "\(records.reduce(0) { $0 + $1.files.count })"),
        ])
        var integrity: [String: Int] = [:]
        var sidecars: [String: Int] = [:]
        for r in records {
            integrity[r.integrity.rawValue, default: 0] += 1
            for state in r.sidecars.values { sidecars[state.rawValue, default: 0] += 1 }
        }
        h += "<div class=\"counts\"><table><tr><th>Integrity at ingest</th><th>Records</th></tr>"
        for state in ordered(integrity.keys, Self.integrityOrder) {
            h += "<tr><td>\(stateSpan(state))</td><td>\(integrity[state] ?? 0)</td></tr>"
        }
        h += "</table><table><tr><th>Sidecar state</th><th>Sidecars</th></tr>"
        if sidecars.isEmpty { h += "<tr><td colspan=\"2\">none</td></tr>" }
        for state in ordered(sidecars.keys, Self.sidecarOrder) {
            h += "<tr><td>\(stateSpan(state))</td><td>\(sidecars[state] ?? 0)</td></tr>"
        }
        h += "</table></div>\n"
        h += "<table class=\"records\"><tr><th>#</th><th>Record</th><th>Kind</th><th>Integrity at ingest</th><th>At export</th>"
        h += "<th>Trust</th><th>Capture time (signed)</th><th>Sidecars</th></tr>"
        for (n, r) in records.enumerated() {
            let fresh = r.verificationAtExport.report?.integrity.rawValue
            let sinks = r.sidecars.sorted { $0.key < $1.key }.map { "\(esc($0.key.rawValue)) \(stateSpan($0.value.rawValue))" }.joined(separator: "<br>")
            h += "<tr><td><a href=\"#record-\(n + 1)\">\(n + 1)</a></td><td><a href=\"#record-\(n + 1)\"><code>\(esc(String(r.recordId.hex.prefix(16))))…</code></a>"
            h += "<br><span class=\"note\">\(esc(primaryName(r)))</span></td><td>\(esc(r.kind.rawValue))</td><td>\(stateSpan(r.integrity.rawValue))</td>"
            h += "<td>\(fresh.map(stateSpan) ?? esc(r.verificationAtExport.state))</td><td>\(esc(r.trust?.rawValue ?? "—"))</td>"
            h += "<td>\(esc(r.captureTime ?? "not stated"))</td><td>\(sinks.isEmpty ? "none" : sinks)</td></tr>"
        }
        h += "</table></section>\n"
        h += "<nav class=\"toc\" id=\"contents\"><h2>Contents</h2><ol>"
        h += "<li><a href=\"#summary\">Summary</a></li><li><a href=\"#about\">About this export</a></li>"
        for (n, r) in records.enumerated() {
            h += "<li><a href=\"#record-\(n + 1)\">Record \(n + 1): \(esc(primaryName(r)))</a> <span class=\"note\">\(esc(r.integrity.rawValue))</span></li>"
        }
        return h + "</ol></nav>\n"
    }

    static let integrityOrder = [Integrity.intact, .tampered, .unsigned, .malformed].map(\.rawValue)
    static let sidecarOrder = SidecarState.allCases.map(\.rawValue)

    func ordered(_ keys: Dictionary<String, Int>.Keys, _ order: [String]) -> [String] {
        order.filter(keys.contains) + keys.filter { !order.contains($0) }.sorted()
    }

    /// The delivery file's name.
    func primaryName(_ r: CustodyDocument.RecordCustody) -> String {
        let media = r.files.first { $0.role == .media } ?? r.files.first
        return media.map { ($0.path as NSString).lastPathComponent } ?? r.recordId.hex
    }

    /// Print layout (`@media print` and `@page`): the paper size, a running head with the case
    /// and the bag ID and a page number "Page n of m" on every page (CSS page margin boxes),
    /// each record on a new page, no heading left alone at the foot of a page, no table row
    /// split across pages.
    var printStyle: String {
        let e = document.export
        let head = cssString((e.caseName.map { "Case \($0) · " } ?? "") + "Bag \(e.externalIdentifier)")
        return """
        @page{size:\(paper.css);margin:18mm 14mm 18mm 14mm;\
        @top-left{content:\(head);font-size:8pt;color:#444;font-family:"DejaVu Sans",Arial,sans-serif}\
        @bottom-right{content:"Page " counter(page) " of " counter(pages);font-size:8pt;color:#444;font-family:"DejaVu Sans",Arial,sans-serif}\
        @bottom-left{content:"exhibit-archive chain-of-custody report";font-size:8pt;color:#777;font-family:"DejaVu Sans",Arial,sans-serif}}
        .counts{display:flex;gap:24px}.toc ol{margin:4px 0 0 18px;padding:0}.toc li{margin:2px 0}
        table.records td{font-size:12px}a{color:#0b4f8a}
        @media print{body{margin:0;max-width:none}h1,h2,h3{break-after:avoid;page-break-after:avoid}
        h2,h3{break-inside:avoid}tr,img,svg,.thumbbox{break-inside:avoid;page-break-inside:avoid}
        .record{break-before:page;page-break-before:always}.toc{break-after:page;page-break-after:always}
        a{color:inherit;text-decoration:none}}
        """
    }

    /// A CSS string literal (quotes, backslashes and line ends escaped).
    func cssString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "<": out += "\\3c "
            default: out += u.value < 0x20 || u.value == 0x7F ? "\\" + String(u.value, radix: 16) + " " : String(u)
            }
        }
        return out + "\""
    }
}
