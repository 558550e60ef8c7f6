import Export
import Foundation
import Ground
import TestLiterals
import Testing

/// report.html renders in headless Chromium (Debian's `chromium`, installed by scripts/setup.sh):
/// the page is not blank, and hiding the thumbnails or the pose plot changes the pixels where
/// they sit — so both were drawn.
@Suite struct ReportRenderTests {
    static let chromium = "/usr/bin/chromium"
    static let width = 1280, height = 3000

    /// Screenshots `html` and returns its pixels as RGB24 (decoded by ffmpeg).
    static func render(_ html: String, in dir: String, name: String) throws -> [UInt8] {
        let page = "\(dir)/\(name).html", png = "\(dir)/\(name).png", raw = "\(dir)/\(name).rgb"
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        let (code, text) = try ExportFixture.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(dir)/profile-\(name)", "--screenshot=\(png)", "--window-size=\(width),\(height)",
            "file://\(page)",
        ])
        #expect(code == 0, "chromium: \(text)")
        try ExportFixture.run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-nostdin", "-i", png,
                                                  "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let pixels = Array(try Data(contentsOf: URL(fileURLWithPath: raw)))
        #expect(pixels.count == width * height * 3, "screenshot is \(width)×\(height)")
        return pixels
    }

    /// Pixels that differ between two renders, and their bounding box.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> (count: Int, minX: Int, minY: Int, maxX: Int, maxY: Int) {
        var count = 0, minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for p in 0..<min(a.count, b.count) / 3 where a[3 * p] != b[3 * p] || a[3 * p + 1] != b[3 * p + 1] || a[3 * p + 2] != b[3 * p + 2] {
            count += 1
            let x = p % width, y = p / width
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        return (count, minX, minY, maxX, maxY)
    }

    static func hiding(_ html: String, _ css: String) -> String {
        html.replacingOccurrences(of: "</style>", with: css + "</style>")
    }

    @Test func reportRendersWithThumbnailAndPlot() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.chromium),
                "chromium is required (apt-get install chromium; scripts/setup.sh installs it)")
        let f = try ExportFixture()
        try f.addCapture("c1", seed: 3)
        let out = f.root + "/bag"
        _ = try f.exporter().export(f.records, options: f.options(out))
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.contains("<img class=\"thumb\" id=\"thumb-1\""))
        #expect(html.contains("src=\"data:image/jpeg;base64,/9j/"))
        #expect(html.contains("<svg id=\"pose-1\" class=\"pose-plot\""))

        let dir = f.root + "/render"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let full = try Self.render(html, in: dir, name: "full")
        let nonWhite = stride(from: 0, to: full.count, by: 3).filter { full[$0] < 240 || full[$0 + 1] < 240 || full[$0 + 2] < 240 }.count
        #expect(nonWhite > Self.width * Self.height / 50, "page is not blank (\(nonWhite) non-white pixels)")

        let noThumb = try Self.render(Self.hiding(html, ".thumb{visibility:hidden}"), in: dir, name: "nothumb")
        let t = Self.difference(full, noThumb)
        // The thumbnail (240×180 at most, a 320×240 test pattern scaled) sits in the top-left box.
        #expect(t.count > 240 * 100, "thumbnail pixels drawn: \(t.count)")
        #expect(t.maxX - t.minX <= 240 && t.maxY - t.minY <= 180, "thumbnail region \(t)")
        #expect(t.minX < 300, "thumbnail at the left of its record: \(t)")

        let noPlot = try Self.render(Self.hiding(html, ".pose-plot polyline{visibility:hidden}"), in: dir, name: "noplot")
        let p = Self.difference(full, noPlot)
        // Three gyro curves across a 572-px-wide plot area.
        #expect(p.count > 1000, "plot pixels drawn: \(p.count)")
        #expect(p.maxX - p.minX > 400, "curves span the plot: \(p)")
        #expect(p.minY > t.maxY, "plot below the thumbnail: \(p)")
    }

    @Test func reportIsSelfContainedAndRendersNoVerdict() throws {
        let f = try ExportFixture()
        try f.addCapture("c1")
        let out = f.root + "/bag"
        _ = try f.exporter().export(f.records, options: f.options(out))
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        for forbidden in ["<script", "<link", "<iframe", "src=\"http", "url(", "@import"] {
            #expect(!html.contains(forbidden), "report.html contains \(forbidden)")
        }
        // Links only within the page (the summary's and the contents' links to sections).
        #expect(html.components(separatedBy: "href=").dropFirst().allSatisfy { $0.hasPrefix("\"#") })
        let words = html.lowercased().split { !$0.isLetter }.map(String.init)
        for verdict in ["real", "fake", "authentic", "authenticity", "genuine", "forged", "forgery", "manipulated", "deepfake"] {
            #expect(!words.contains(verdict), "report.html uses the word \(verdict)")
        }
        // Every seed signal is explained with both halves.
        for s in SignalLimits.all {
            #expect(html.contains(s.signal.replacingOccurrences(of: "&", with: "&amp;")))
        }
        #expect(html.contains("What each signal bounds"))
        #expect(html.contains("audio") && html.contains("verified"))
    }

    @Test func jsonLDUsesCASEAndUCOTerms() throws {
        let f = try ExportFixture()
        let record = try f.addCapture("c1")
        let out = f.root + "/bag"
        _ = try f.exporter().export([record], options: f.options(out))
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/custody.jsonld"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let context = try #require(root["@context"] as? [String: String])
        #expect(context["case-investigation"] == "https://ontology.caseontology.org/case/investigation/")
        #expect(context["uco-observable"] == "https://ontology.unifiedcyberontology.org/uco/observable/")
        let graph = try #require(root["@graph"] as? [[String: Any]])
        func nodes(_ type: String) -> [[String: Any]] { graph.filter { ($0["@type"] as? String) == type } }
        #expect(nodes("case-investigation:ProvenanceRecord").count == 1)
        #expect(nodes("case-investigation:ProvenanceRecord").first?["case-investigation:exhibitNumber"] as? String == record.recordId.hex)
        // ingestion + replication events of this record, plus the export action.
        #expect(nodes("case-investigation:InvestigativeAction").count == 3)
        let files = nodes("uco-observable:File")
        #expect(files.count == 3)
        let hashes = files.compactMap { file -> String? in
            let facets = file["uco-core:hasFacet"] as? [[String: Any]]
            let content = facets?.first { ($0["@type"] as? String) == "uco-observable:ContentDataFacet" }
            let hash = (content?["uco-observable:hash"] as? [[String: Any]])?.first
            #expect((hash?["uco-types:hashMethod"] as? [String: String])?["@value"] == "SHA256")
            return (hash?["uco-types:hashValue"] as? [String: String])?["@value"]
        }
        #expect(Set(hashes) == Set(record.variants.map(\.blobId.hex) + record.files.map(\.blobId.hex)))
    }
}
