import Export
import Foundation
import Ingest
import Testing

/// What a legal team files: report.html's summary and contents, its print layout printed to
/// report.pdf by headless Chromium, the pages rendered by pdftoppm and read by pdftotext
/// (page numbers, case and bag on every page, no blank page, each record on a new page), a
/// screenshot of the summary, and the error when no PDF engine is there.
@Suite(.serialized) struct CourtReportTests {
    static func tool(_ name: String) -> String { "/usr/bin/" + name }

    /// A three-record bag printed to PDF on `paper`.
    static func printedBag(_ f: ExportFixture, paper: ReportPaper) throws -> (String, Exporter.Summary) {
        for (i, name) in ["c1", "c2", "c3"].enumerated() { try f.addCapture(name, seed: UInt8(i + 1)) }
        let out = f.root + "/bag-\(paper.rawValue)"
        var options = f.options(out, caseName: "People v. Printer")
        options.pdf = true
        options.paper = paper
        return (out, try f.exporter().export(f.records, options: options))
    }

    @Test func summaryAndContentsOpenTheReport() throws {
        let f = try ExportFixture()
        try f.addCapture("c1", seed: 1)
        try f.addCapture("c2", seed: 2)
        let out = f.root + "/bag"
        let s = try f.exporter().export(f.records, options: f.options(out))
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        let summary = try #require(html.range(of: "<section class=\"summary\" id=\"summary\">"))
        let contents = try #require(html.range(of: "<nav class=\"toc\" id=\"contents\">"))
        let firstRecord = try #require(html.range(of: "<section class=\"record\" id=\"record-1\">"))
        #expect(summary.lowerBound < contents.lowerBound && contents.lowerBound < firstRecord.lowerBound)
        let head = String(html[summary.lowerBound..<contents.lowerBound])
        #expect(head.contains("State v. Example") && head.contains(s.externalIdentifier))
        #expect(head.contains("<tr><td><span class=\"state-intact\">intact</span></td><td>2</td></tr>"))   // counts by integrity
        #expect(head.contains("<tr><td><span class=\"state-verified\">verified</span></td><td>4</td></tr>"))  // by sidecar state
        for (n, r) in f.records.enumerated() {
            #expect(head.contains("<a href=\"#record-\(n + 1)\"><code>\(r.recordId.prefix(16))…</code></a>"))
            #expect(html.contains("id=\"record-\(n + 1)\""))
        }
        #expect(html[contents.lowerBound...].contains("<li><a href=\"#record-2\">Record 2: IMG_c2.jpg</a>"))
        #expect(html.contains("@page{size:A4;"))
        #expect(html.contains("@bottom-right{content:\"Page \" counter(page) \" of \" counter(pages)"))
        #expect(html.contains("@top-left{content:\"Case State v. Example · Bag \(s.externalIdentifier)\""))
        #expect(html.contains("h1,h2,h3{break-after:avoid") && html.contains(".record{break-before:page"))
    }

    @Test(arguments: [ReportPaper.letter, .a4]) func pdfPagesAreNumberedAndNoneIsBlank(_ paper: ReportPaper) throws {
        let f = try ExportFixture()
        let (out, s) = try Self.printedBag(f, paper: paper)
        let pdf = out + "/report.pdf"
        #expect(s.pdf == pdf)
        #expect(BagVerifier(bag: out).verify().findings == [])   // report.pdf is a listed tag file
        let (code, info) = try ExportFixture.run(Self.tool("pdfinfo"), [pdf])
        #expect(code == 0, "\(info)")
        let pages = try #require(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }
            .flatMap { Int($0.split(separator: " ").last ?? "") })
        #expect(pages >= 4, "\(info)")   // summary and contents, about, one page at least per record
        // pdfinfo names the paper it recognises (Chromium rounds A4 to 594.96 × 841.92 pt).
        #expect(info.contains(paper == .a4 ? " pts (A4)" : " pts (letter)"), "\(info)")
        var recordPages: [Int] = []
        for page in 1...pages {
            let (_, text) = try ExportFixture.run(Self.tool("pdftotext"), ["-layout", "-f", "\(page)", "-l", "\(page)", pdf, "-"])
            #expect(text.contains("Page \(page) of \(pages)"), "page \(page): \(text.prefix(300))")
            #expect(text.contains("Case People v. Printer · Bag \(s.externalIdentifier)"), "page \(page)")
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if lines.count > 1, lines[1].hasPrefix("Record ") { recordPages.append(page) }
            // No heading left alone at the foot: the last text line before the footer is no section heading.
            let body = lines.filter { !$0.contains("Page \(page) of") && !$0.hasPrefix("Case People") && !$0.hasPrefix("exhibit-archive chain") }
            if let last = body.last {
                #expect(!["Integrity checks", "Evidence files (sidecars)", "Signed pose trace", "Files in this bag", "Custody events",
                          "Capture facts stated by the device"].contains(last), "page \(page) ends with the heading \(last)")
            }
        }
        #expect(recordPages.count == 3, "each record starts a page (its heading first): \(recordPages)")
        // Rendered pages: none blank, and ink in the footer's corner (the page number).
        let dir = f.root + "/pages"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let (rc, rtext) = try ExportFixture.run(Self.tool("pdftoppm"), ["-r", "72", "-gray", pdf, dir + "/p"])
        #expect(rc == 0, "\(rtext)")
        let rendered = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".pgm") }.sorted()
        #expect(rendered.count == pages)
        for name in rendered {
            let image = try GrayImagePGM(path: dir + "/" + name)
            // The body (between the running head and the footer) has ink: no blank page.
            let body = (0, image.height * 8 / 100, image.width, image.height * 92 / 100)
            #expect(image.inkFraction(in: body) > 0.002, "\(name) is blank")
            let corner = (image.width * 3 / 4, image.height * 92 / 100, image.width, image.height)
            #expect(image.inkFraction(in: corner) > 0.002, "\(name): no page number drawn in the corner")
        }
    }

    /// A headless-Chromium screenshot of the top of report.html (1100×900), as grey pixels
    /// (decoded by ffmpeg); the PNG is kept at `png` to be looked at.
    @Test func summaryScreenshot() throws {
        let f = try ExportFixture()
        try f.addCapture("c1", seed: 1)
        try f.addCapture("c2", seed: 2)
        let out = f.root + "/bag"
        _ = try f.exporter().export(f.records, options: f.options(out))
        let png = NSTemporaryDirectory() + "exhibit-report-summary.png", raw = f.root + "/summary.gray"
        let (code, text) = try ExportFixture.run(ReportRenderTests.chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(f.root)/profile", "--screenshot=\(png)", "--window-size=1100,900",
            URL(fileURLWithPath: out + "/report.html").absoluteString,
        ])
        #expect(code == 0, "chromium: \(text)")
        try ExportFixture.run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-nostdin", "-i", png, "-f", "rawvideo", "-pix_fmt", "gray", raw])
        let image = GrayImagePGM(width: 1100, height: 900, pixels: Array(try Data(contentsOf: URL(fileURLWithPath: raw))))
        #expect(image.pixels.count == 1100 * 900)
        // The title and the summary's tables are drawn: ink over the top of the page, where
        // the summary sits, and in the records table's rows.
        #expect(image.darkFraction(in: (0, 0, 1100, 120)) > 0.01, "no title")
        #expect(image.darkFraction(in: (20, 120, 700, 520)) > 0.02, "summary area looks empty")
    }

    @Test func missingEngineIsANamedErrorAndLeavesNothing() throws {
        let f = try ExportFixture()
        let record = try f.addCapture("c1")
        let before = try f.log.allEvents().count
        let out = f.root + "/bag"
        var options = f.options(out)
        options.pdf = true
        options.pdfEngine = "/nonexistent/chromium"
        #expect(throws: ExportError.self) { try f.exporter().export([record], options: options) }
        do { _ = try f.exporter().export([record], options: options) } catch {
            #expect(error.code == "export.pdfEngineMissing" && error.description.contains("apt-get install chromium"))
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try f.log.allEvents().count == before)
        #expect(throws: ExportError.self) { try ReportPrinter(engine: nil, environment: ["PATH": f.root]) }
    }
}

/// A binary PGM (P5) as pdftoppm -gray writes it.
struct GrayImagePGM {
    let width: Int, height: Int
    let pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(path: String) throws {
        let data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var fields: [String] = []
        var i = 0
        while fields.count < 4, i < data.count {
            while i < data.count, data[i] == 0x20 || data[i] == 0x0A || data[i] == 0x0D || data[i] == 0x09 { i += 1 }
            var word = ""
            while i < data.count, !(data[i] == 0x20 || data[i] == 0x0A || data[i] == 0x0D || data[i] == 0x09) { word.append(Character(UnicodeScalar(data[i]))); i += 1 }
            fields.append(word)
        }
        i += 1
        guard fields.count == 4, fields[0] == "P5", let w = Int(fields[1]), let h = Int(fields[2]), data.count - i >= w * h else {
            throw FixtureError("not a P5 PGM: \(path)")
        }
        width = w
        height = h
        pixels = Array(data[i..<(i + w * h)])
    }

    /// The fraction of pixels darker than mid-grey in the box (x0, y0, x1, y1).
    func darkFraction(in box: (Int, Int, Int, Int)) -> Double { fraction(in: box, below: 128) }

    /// The fraction of pixels with ink (darker than light grey: antialiased small text counts).
    func inkFraction(in box: (Int, Int, Int, Int)) -> Double { fraction(in: box, below: 200) }

    func fraction(in box: (Int, Int, Int, Int), below threshold: UInt8) -> Double {
        var dark = 0, total = 0
        for y in max(0, box.1)..<min(height, box.3) {
            for x in max(0, box.0)..<min(width, box.2) {
                total += 1
                if pixels[y * width + x] < threshold { dark += 1 }
            }
        }
        return total == 0 ? 0 : Double(dark) / Double(total)
    }
}
