import Export
import Foundation
import Ingest
import Testing

/// No absolute path of the ingesting or exporting machine in a bag unless asked for
/// (`includeSourcePaths`): every file of the bag is searched for the dump's, the archive's and
/// the destination's folders; with the option the ingest paths and the destination are there.
/// custody.jsonld passes case_validate (case-utils) with no finding at all.
@Suite struct SourcePathTests {
    static func occurrences(of needles: [String], in bag: String) throws -> [String] {
        var found: [String] = []
        let e = FileManager.default.enumerator(atPath: bag)
        while let p = e?.nextObject() as? String {
            guard !p.hasPrefix("data/"), let data = FileManager.default.contents(atPath: bag + "/" + p) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for n in needles where text.contains(n) { found.append("\(p) holds \(n)") }
        }
        return found
    }

    @Test func noMachinePathsByDefault() throws {
        let f = try ExportFixture()
        try f.addCapture("c1", seed: 1)
        let out = f.root + "/out/bag"
        try FileManager.default.createDirectory(atPath: f.root + "/out", withIntermediateDirectories: true)
        _ = try f.exporter().export(f.records, options: f.options(out))
        let needles = [f.dump, f.archive, f.root + "/out", NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()]
        #expect(try Self.occurrences(of: needles, in: out) == [])
        // The report at ingest keeps its paths relative to the dump's parent, as sourcePaths.
        let doc = try CustodyDocument.decoder().decode(CustodyDocument.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/custody.json")))
        let r = try #require(doc.records.first)
        #expect(r.verificationAtIngest?.path == "dump/captures/c1/IMG_c1.jpg")
        #expect(r.verificationAtIngest?.files.allSatisfy { $0.path.hasPrefix("dump/captures/c1/") } == true)
        #expect(r.files.first?.sourcePaths == ["dump/captures/c1/IMG_c1.jpg"])
        let event = try #require(doc.custodyChain?.event(doc.export.replicationEvent ?? 0))
        #expect(event.eventType == .dissemination && !event.outcomeDetail.contains(" to /"))
    }

    @Test func includeSourcePathsKeepsThem() throws {
        let f = try ExportFixture()
        try f.addCapture("c1", seed: 1)
        let out = f.root + "/bag"
        var options = f.options(out)
        options.includeSourcePaths = true
        _ = try f.exporter().export(f.records, options: options)
        let found = try Self.occurrences(of: [f.dump + "/captures/c1/IMG_c1.jpg", " to " + out], in: out)
        #expect(found.contains("custody.json holds \(f.dump)/captures/c1/IMG_c1.jpg"), "\(found)")
        #expect(found.contains("custody.json holds  to \(out)"), "\(found)")
    }

    @Test func linkedDataConformsToCASE() throws {
        let f = try ExportFixture()
        try f.addCapture("c1", seed: 1)
        let out = f.root + "/bag"
        _ = try f.exporter().export(f.records, options: f.options(out))
        let bin = try #require(ArchivalPackageTests.bin)
        let (code, text) = try ExportFixture.run(bin + "/case_validate", ["--allow-infos", out + "/custody.jsonld"])
        #expect(code == 0, "\(text)")
        #expect(text.contains("Conforms: True"), "\(text)")
        // Every IRI ends in a UUID: no such Info. The only Infos left are pyshacl's for the
        // typed literal "SHA256"^^xsd:string against the vocabulary's sh:in list (one per file).
        #expect(!text.contains("suggested to end with a UUID"), "\(text.prefix(2000))")
        let infos = text.components(separatedBy: "Severity: sh:Info").count - 1
        let hashInfos = text.components(separatedBy: "Value is not member of the vocabulary HashNameVocab").count - 1
        #expect(infos == hashInfos && !text.contains("sh:Violation") && !text.contains("sh:Warning"), "\(text.prefix(2000))")
        let jsonld = try String(contentsOfFile: out + "/custody.jsonld", encoding: .utf8)
        #expect(jsonld.contains("\"@type\" : \"xsd:string\",\n") && jsonld.contains("\"@value\" : \"SHA256\""))
        let ids = jsonld.components(separatedBy: "\"@id\" : \"kb:").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        let uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        #expect(!ids.isEmpty && ids.allSatisfy { $0.firstMatch(of: uuid) != nil }, "\(ids.filter { $0.firstMatch(of: uuid) == nil })")
    }
}
