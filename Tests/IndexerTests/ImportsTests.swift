import Foundation
import Testing

/// Issue 14 §1: the command line talks to the archive through `Archive`'s protocols, the handle
/// (`ArchiveHandle`) and its one factory (`ArchiveOpen`) only. SwiftPM lets a target import any
/// module built before it, so Package.swift no longer listing the implementations as the
/// Indexer's dependencies does not stop a stray import; these tests do.
@Suite struct ImportsTests {
    /// The modules below the protocols: the implementations and the C edge they wrap.
    static let implementations: Set<String> = ["CAS", "LMDB", "CLMDB", "ArchiveLMDB", "ArchiveS3", "S3", "HTTP", "CCurl",
                                               "ArchivePostgres", "Postgres", "CPQ"]

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The module an `import` line names (`import X`, `import X.Y`, `import struct X.Y`,
    /// `@testable import X`, `@_exported import X`, `public import X`), else nil.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        while let w = words.first, w.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(w) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        return path.split(separator: ".").first.map(String.init)
    }

    @Test func importLinesAreRead() {
        #expect(Self.importedModule("import CAS") == "CAS")
        #expect(Self.importedModule("@testable import ArchivePostgres") == "ArchivePostgres")
        #expect(Self.importedModule("@_exported import S3") == "S3")
        #expect(Self.importedModule("import struct LMDB.Environment") == "LMDB")
        #expect(Self.importedModule("public import Postgres.Connection") == "Postgres")
        #expect(Self.importedModule("// import CAS") == nil)
        #expect(Self.importedModule("let importance = 1") == nil)
    }

    @Test func commandLineImportsNoImplementation() throws {
        let sources = Self.repository.appendingPathComponent("Sources/Indexer")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "Sources/Indexer read: \(files.count) files")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let module = Self.importedModule(String(line)), Self.implementations.contains(module) { found.append("\(file): \(line)") }
            }
        }
        #expect(found.isEmpty, "Sources/Indexer imports below the protocols (issue 14 §1; go through ArchiveOpener): \(found)")
    }

    /// Package.swift's Indexer target lists none of them either.
    @Test func packageListsNoImplementationForTheCommandLine() throws {
        let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: ".executableTarget(name: \"Indexer\""))
        let end = try #require(manifest.range(of: "]", range: start.upperBound..<manifest.endIndex))
        let listed = manifest[start.upperBound..<end.lowerBound].split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(listed.contains("ArchiveOpen") && listed.contains("Archive"), "\(listed)")
        #expect(Set(listed).isDisjoint(with: Self.implementations), "\(listed)")
    }
}
