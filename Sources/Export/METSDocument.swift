import Custody
import Foundation
import Ground
import Ingest

/// `METS.xml`: the bag described as Archivematica describes a package (METS 1.12 with PREMIS 3
/// inside), so AtoM, Archivematica and other repositories can take it in.
///
/// - `metsHdr` (CREATEDATE, the three agents, the bag's External-Identifier);
/// - a Dublin Core `dmdSec` for the export and one per record (identifier, title, date, type,
///   description of integrity, trust and sidecar states);
/// - one `amdSec` per payload file: a `techMD` with a PREMIS `file` object (UUID and blob ID,
///   SHA-256 fixity, size, PRONOM format), a `digiprovMD` per custody event about the file or
///   its record (the dissemination, the signing of custody.json), and the three agents —
///   software (exhibit-archive at its version), the exporting operator, the organization;
/// - a `fileSec` with the groups `original` (delivery files), `evidence` (sidecars, ring
///   frames, depth, second view, unreferenced files) and `disclosure` (bundles);
/// - a physical `structMap`: bag → data → record → folders → files.
///
/// Archivematica's schematron admits in a `digiprovMD` only PREMIS:EVENT and PREMIS:AGENT
/// wraps, and only the event types of its own workflow (ingestion, message digest
/// calculation, validation, fixity check, …). So METS.xml carries the custody events of those
/// types, and `PREMIS.xml` (`PREMISDocument`) carries every one — `digital signature
/// validation`, `dissemination`, `digital signature generation` among them — with every
/// object and agent; the software agent's note in metsHdr says so. The mapping is in
/// docs/export.md.
public struct METSDocument {
    public static let fileName = "METS.xml"
    static let premisNote = "This METS follows Archivematica's profile, whose PREMIS:EVENT wraps admit only its own event types; "
        + "PREMIS.xml in this bag holds every custody event of the exported records (digital signature validation, "
        + "dissemination, digital signature generation included), every file object and every agent."
    static let premisLocation = "http://www.loc.gov/premis/v3 http://www.loc.gov/standards/premis/v3/premis.xsd"
    static let dcLocation = "http://purl.org/dc/terms/ https://dublincore.org/schemas/xmls/qdc/2008/02/11/dcterms.xsd"
    /// The event types Archivematica's schematron (metsrw `AM_SCT_PATH`) admits in PREMIS:EVENT wraps.
    static let archivematicaEventTypes: Set<String> = ["ingestion", "message digest calculation", "virus check", "name cleanup",
                                                       "format identification", "validation", "normalization", "fixity check",
                                                       "creation", "unpacking", "compression"]

    let document: CustodyDocument
    let plans: [PayloadPlan]
    /// The bag's folder, where the payload files are read for their format.
    let bag: String
    let signatureEvent: CustodyEvent?

    init(document: CustodyDocument, plans: [PayloadPlan], bag: String, signatureEvent: CustodyEvent?) {
        self.document = document
        self.plans = plans
        self.bag = bag
        self.signatureEvent = signatureEvent
    }

    /// The file's UUID, shared with custody.jsonld.
    static func fileUUID(_ bagId: String, _ path: String) -> String { NameUUID.make(bagId, "file:" + path) }

    public func xml() -> String {
        let e = document.export
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<mets:mets xmlns:mets=\"http://www.loc.gov/METS/\" xmlns:premis=\"http://www.loc.gov/premis/v3\" "
        x += "xmlns:xlink=\"http://www.w3.org/1999/xlink\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
        x += "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:dcterms=\"http://purl.org/dc/terms/\" "
        x += "xsi:schemaLocation=\"http://www.loc.gov/METS/ http://www.loc.gov/standards/mets/version1121/mets.xsd\" "
        x += "OBJID=\(attr(e.externalIdentifier)) LABEL=\(attr(e.caseName ?? "Chain-of-custody export")) PROFILE=\"Archivematica METS (metsrw schematron)\">\n"
        x += " <mets:metsHdr CREATEDATE=\(attr(e.time))>\n"
        x += "  <mets:agent ROLE=\"CREATOR\" TYPE=\"ORGANIZATION\"><mets:name>\(text(e.sourceOrganization))</mets:name></mets:agent>\n"
        x += "  <mets:agent ROLE=\"CREATOR\" TYPE=\"INDIVIDUAL\"><mets:name>\(text(e.operatorName))</mets:name></mets:agent>\n"
        x += "  <mets:agent ROLE=\"CREATOR\" TYPE=\"OTHER\" OTHERTYPE=\"SOFTWARE\"><mets:name>\(text("\(e.tool) \(e.toolVersion)"))</mets:name>"
        x += "<mets:note>\(text(Self.premisNote))</mets:note></mets:agent>\n"
        x += "  <mets:altRecordID TYPE=\"BagIt External-Identifier\">\(text(e.externalIdentifier))</mets:altRecordID>\n"
        x += " </mets:metsHdr>\n"
        x += dublinCore("dmdSec_export", [("title", e.caseName.map { "Chain-of-custody export, case \($0)" } ?? "Chain-of-custody export"),
                                          ("identifier", e.externalIdentifier), ("date", e.time),
                                          ("creator", e.sourceOrganization), ("publisher", e.sourceOrganization),
                                          ("description", "\(document.records.count) record(s) exported by \(e.operatorName) with \(e.tool) \(e.toolVersion); custody.json is signed by custody.cose")])
        for (n, r) in document.records.enumerated() {
            let type = r.kind == .video ? "MovingImage" : r.kind == .still ? "StillImage" : "Dataset"
            let sinks = r.sidecars.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value.rawValue)" }.joined(separator: ", ")
            var fields = [("identifier", r.recordId.hex), ("title", (r.files.first?.path as NSString?)?.lastPathComponent ?? r.recordId.hex),
                          ("type", type)]
            if let t = r.captureTime { fields.append(("date", t)) }
            fields.append(("description", "integrity \(r.integrity.rawValue); trust \(r.trust?.rawValue ?? "none"); sidecars: \(sinks.isEmpty ? "none" : sinks)"))
            x += dublinCore("dmdSec_\(n + 1)", fields)
        }
        var amd = 0
        var groups: [String: [(id: String, file: CustodyDocument.BagFile, amdSec: String, format: FileFormat)]] = [:]
        for r in document.records {
            let events = eventsOf(r)
            for f in r.files {
                amd += 1
                let format = FileFormat.identify(path: bag + "/" + f.path)
                let uuid = Self.fileUUID(e.externalIdentifier, f.path)
                x += amdSec(amd, f, uuid: uuid, format: format, events: events.filter { Self.concerns($0, f, r) })
                groups[Self.use(f.role), default: []].append(("file-" + uuid, f, "amdSec_\(amd)", format))
            }
        }
        x += " <mets:fileSec>\n"
        for use in ["original", "evidence", "disclosure"] {
            guard let files = groups[use], !files.isEmpty else { continue }
            x += "  <mets:fileGrp USE=\"\(use)\">\n"
            for f in files {
                x += "   <mets:file ID=\"\(f.id)\" GROUPID=\"Group-\(f.id.dropFirst(5))\" ADMID=\"\(f.amdSec)\" MIMETYPE=\(attr(f.format.mime)) "
                x += "SIZE=\"\(f.file.size)\" CHECKSUM=\"\(f.file.sha256)\" CHECKSUMTYPE=\"SHA-256\">"
                x += "<mets:FLocat LOCTYPE=\"OTHER\" OTHERLOCTYPE=\"SYSTEM\" xlink:type=\"simple\" xlink:href=\(attr(f.file.path))/></mets:file>\n"
            }
            x += "  </mets:fileGrp>\n"
        }
        x += " </mets:fileSec>\n"
        x += structMap()
        return x + "</mets:mets>\n"
    }

    /// The whole events of the record's chain, then the signature event when it names the record.
    func eventsOf(_ r: CustodyDocument.RecordCustody) -> [CustodyEvent] {
        var out = r.custodyEvents.compactMap { document.custodyChain?.event($0) }
        if let s = signatureEvent, s.objects.contains(.record(r.recordId)) { out.append(s) }
        return out
    }

    /// Whether an event concerns this file: it names the file's blob, or names the record and
    /// no blob at all (validation, signature events are about the record as a whole).
    static func concerns(_ e: CustodyEvent, _ f: CustodyDocument.BagFile, _ r: CustodyDocument.RecordCustody) -> Bool {
        if e.objects.contains(.blob(f.sha256)) { return true }
        return e.objects.contains(.record(r.recordId)) && !e.objects.contains { $0.kind == "blob" }
    }

    /// The fileGrp USE of a file role.
    static func use(_ role: FileRole) -> String {
        switch role {
        case .media, .mediaVariant: "original"
        case .bundle: "disclosure"
        default: "evidence"
        }
    }

    func dublinCore(_ id: String, _ fields: [(String, String)]) -> String {
        var x = " <mets:dmdSec ID=\"\(id)\"><mets:mdWrap MDTYPE=\"DC\"><mets:xmlData>"
        x += "<dcterms:dublincore xsi:schemaLocation=\(attr(Self.dcLocation))>"
        for (k, v) in fields { x += "<dc:\(k)>\(text(v))</dc:\(k)>" }
        return x + "</dcterms:dublincore></mets:xmlData></mets:mdWrap></mets:dmdSec>\n"
    }


    /// XML character data: `&`, `<`, `>` escaped; characters XML 1.0 cannot hold written `\u{…}`.
    func text(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                let v = u.value
                if v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000 {
                    out.unicodeScalars.append(u)
                } else {
                    out += "\\u{" + String(v, radix: 16) + "}"
                }
            }
        }
        return out
    }

    /// A quoted attribute value.
    func attr(_ s: String) -> String { "\"" + text(s).replacingOccurrences(of: "\n", with: "&#10;") + "\"" }
}
