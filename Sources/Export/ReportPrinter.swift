import Foundation

/// The page size report.html is laid out for when printed (`@page size`), and report.pdf's.
public enum ReportPaper: String, CaseIterable, Sendable {
    case a4, letter

    /// The CSS `@page size` keyword.
    var css: String { self == .a4 ? "A4" : "letter" }
}

/// Prints report.html to report.pdf with a real engine: Debian's headless Chromium
/// (`chromium --headless --print-to-pdf`), which lays the page out with the report's own
/// print styles (`@page` size, margin boxes with the page numbers, case and bag ID on every
/// page, `break-before`/`break-after`). No network: the page has no external resource and
/// Chromium runs with its own empty profile in a temporary directory.
///
/// The engine is `EXHIBIT_CHROMIUM`, else `chromium` (or `chromium-browser`) on `PATH`.
/// When there is none, the export fails before anything is written with
/// `export.pdfEngineMissing` (install it with `apt-get install chromium`, as
/// scripts/setup.sh does); when it runs and makes no PDF, with `export.pdfFailed`.
public struct ReportPrinter: Sendable {
    public static let pdfFile = "report.pdf"
    /// Chromium gets this long before it is stopped.
    static let timeout: TimeInterval = 120

    public let engine: String

    /// Finds the engine: `engine`, else `$EXHIBIT_CHROMIUM`, else `chromium` on PATH.
    public init(engine: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ExportError) {
        let named = engine ?? environment["EXHIBIT_CHROMIUM"].flatMap { $0.isEmpty ? nil : $0 }
        if let named {
            guard FileManager.default.isExecutableFile(atPath: named) else {
                throw .pdfEngineMissing("the PDF engine \(named) is not an executable file (set EXHIBIT_CHROMIUM to headless Chromium, or apt-get install chromium)")
            }
            self.engine = named
            return
        }
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for dir in path {
            for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
                self.engine = dir + "/" + name
                return
            }
        }
        throw .pdfEngineMissing("export --pdf prints report.html with headless Chromium, and no chromium is on PATH (apt-get install chromium, or set EXHIBIT_CHROMIUM)")
    }

    /// The PDF of the report at `html` (an absolute path), laid out on `paper`.
    public func pdf(ofReport html: String, paper: ReportPaper) throws(ExportError) -> [UInt8] {
        let work = NSTemporaryDirectory() + "exhibit-pdf-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: work) }
        do { try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true) } catch {
            throw .pdfFailed("cannot make a temporary directory for Chromium: \(error)")
        }
        let out = work + "/report.pdf"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: engine)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                       "--disable-extensions", "--disable-background-networking", "--user-data-dir=\(work)/profile",
                       "--no-pdf-header-footer", "--run-all-compositor-stages-before-draw",
                       "--print-to-pdf=\(out)", URL(fileURLWithPath: html).absoluteString]
        p.standardInput = FileHandle.nullDevice
        let log = work + "/chromium.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = FileHandle(forWritingAtPath: log)
        p.standardOutput = handle ?? FileHandle.nullDevice
        p.standardError = handle ?? FileHandle.nullDevice
        do { try p.run() } catch { throw .pdfEngineMissing("cannot run \(engine): \(error)") }
        let deadline = Date().addingTimeInterval(Self.timeout)
        while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
            throw .pdfFailed("\(engine) did not finish printing within \(Int(Self.timeout)) s")
        }
        try? handle?.close()
        guard p.terminationStatus == 0, let data = FileManager.default.contents(atPath: out), data.starts(with: Array("%PDF-".utf8)) else {
            let text = (FileManager.default.contents(atPath: log).map { String(decoding: $0.suffix(600), as: UTF8.self) } ?? "")
            throw .pdfFailed("\(engine) exited \(p.terminationStatus) without a PDF: \(text)")
        }
        return Array(data)
    }
}
