import Custody
import Foundation
import Ground
import Ingest

extension METSDocument {
    /// One file's amdSec: its PREMIS object, the events about it, the three agents.
    func amdSec(_ n: Int, _ f: CustodyDocument.BagFile, uuid: String, format: FileFormat, events: [CustodyEvent]) -> String {
        var x = " <mets:amdSec ID=\"amdSec_\(n)\">\n"
        x += "  <mets:techMD ID=\"techMD_\(n)\"><mets:mdWrap MDTYPE=\"PREMIS:OBJECT\"><mets:xmlData>\n"
        x += premisObject(f, uuid: uuid, format: format)
        x += "  </mets:xmlData></mets:mdWrap></mets:techMD>\n"
        for (i, e) in events.enumerated() where Self.archivematicaEventTypes.contains(e.eventType.rawValue) {
            x += "  <mets:digiprovMD ID=\"digiprovMD_\(n)_\(i + 1)\"><mets:mdWrap MDTYPE=\"PREMIS:EVENT\"><mets:xmlData>\n"
            x += premisEvent(e, objectUUID: uuid) + "  </mets:xmlData></mets:mdWrap></mets:digiprovMD>\n"
        }
        for (i, agent) in agents.enumerated() {
            x += "  <mets:digiprovMD ID=\"digiprovMD_\(n)_agent\(i + 1)\"><mets:mdWrap MDTYPE=\"PREMIS:AGENT\"><mets:xmlData>\n"
            x += premisAgent(agent) + "  </mets:xmlData></mets:mdWrap></mets:digiprovMD>\n"
        }
        return x + " </mets:amdSec>\n"
    }

    /// (identifier type, value, name, PREMIS agentType, version) of the three agents: the
    /// software, the exporting operator, the organization.
    var agents: [(type: String, value: String, name: String, kind: String, version: String?)] {
        let e = document.export
        return [
            ("preservation system", "\(e.tool)-\(e.toolVersion)", e.tool, "software", e.toolVersion),
            ("exhibit-archive operator", e.operatorName, e.operatorName, "person", nil),
            ("organization", e.sourceOrganization, e.sourceOrganization, "organization", nil),
        ]
    }

    func premisObject(_ f: CustodyDocument.BagFile, uuid: String, format: FileFormat) -> String {
        var x = "<premis:object xsi:type=\"premis:file\" xsi:schemaLocation=\(attr(Self.premisLocation)) version=\"3.0\">"
        x += identifier("object", "UUID", uuid)
        x += identifier("object", "exhibit-archive blob ID (SHA-256)", f.sha256.hex)
        x += "<premis:objectCharacteristics><premis:compositionLevel>0</premis:compositionLevel>"
        x += "<premis:fixity><premis:messageDigestAlgorithm>SHA-256</premis:messageDigestAlgorithm>"
        x += "<premis:messageDigest>\(f.sha256.hex)</premis:messageDigest>"
        x += "<premis:messageDigestOriginator>\(text(document.export.tool))</premis:messageDigestOriginator></premis:fixity>"
        x += "<premis:size>\(f.size)</premis:size><premis:format>"
        x += "<premis:formatDesignation><premis:formatName>\(text(format.name))</premis:formatName>"
        if let v = format.version { x += "<premis:formatVersion>\(text(v))</premis:formatVersion>" }
        x += "</premis:formatDesignation>"
        if let puid = format.puid {
            x += "<premis:formatRegistry><premis:formatRegistryName>PRONOM</premis:formatRegistryName>"
            x += "<premis:formatRegistryKey>\(text(puid))</premis:formatRegistryKey>"
            x += "<premis:formatRegistryRole authority=\"formatRegistryRole\" authorityURI=\"http://id.loc.gov/vocabulary/preservation/formatRegistryRole\" "
            x += "valueURI=\"http://id.loc.gov/vocabulary/preservation/formatRegistryRole/spe\">specification</premis:formatRegistryRole>"
            x += "</premis:formatRegistry>"
        }
        x += "</premis:format></premis:objectCharacteristics>"
        x += "<premis:originalName>\(text(f.path))</premis:originalName>"
        return x + "</premis:object>\n"
    }

    func premisEvent(_ e: CustodyEvent, objectUUID: String) -> String {
        var x = "<premis:event xsi:schemaLocation=\(attr(Self.premisLocation)) version=\"3.0\">"
        x += identifier("event", "exhibit-archive custody log event (seq:hash)", "\(e.seq):\(e.hash)")
        x += "<premis:eventType authority=\"eventType\" authorityURI=\"http://id.loc.gov/vocabulary/preservation/eventType\" "
        x += "valueURI=\(attr(e.eventType.uri))>\(text(e.eventType.rawValue))</premis:eventType>"
        x += "<premis:eventDateTime>\(text(e.time))</premis:eventDateTime>"
        x += "<premis:eventDetailInformation><premis:eventDetail>"
        x += text("custody log event \(e.seq) (v\(e.version.rawValue), chain hash \(e.hash)) by \(e.operator) on \(e.host) with \(e.tool.name) \(e.tool.version)"
                  + ((e.organization ?? "").isEmpty ? "" : " for \(e.organization ?? "")"))
        x += "</premis:eventDetail></premis:eventDetailInformation>"
        x += "<premis:eventOutcomeInformation><premis:eventOutcome>\(e.outcome.rawValue)</premis:eventOutcome>"
        if !e.outcomeDetail.isEmpty {
            x += "<premis:eventOutcomeDetail><premis:eventOutcomeDetailNote>\(text(e.outcomeDetail))</premis:eventOutcomeDetailNote></premis:eventOutcomeDetail>"
        }
        x += "</premis:eventOutcomeInformation>"
        x += linkingAgent("preservation system", "\(e.tool.name)-\(e.tool.version)", role: "executing program", code: "exe")
        x += linkingAgent("exhibit-archive operator", e.operator, role: "implementer", code: "imp")
        if let org = e.organization, !org.isEmpty { x += linkingAgent("organization", org, role: "authorizer", code: "aut") }
        x += "<premis:linkingObjectIdentifier><premis:linkingObjectIdentifierType>UUID</premis:linkingObjectIdentifierType>"
        x += "<premis:linkingObjectIdentifierValue>\(objectUUID)</premis:linkingObjectIdentifierValue></premis:linkingObjectIdentifier>"
        return x + "</premis:event>\n"
    }

    func premisAgent(_ a: (type: String, value: String, name: String, kind: String, version: String?)) -> String {
        var x = "<premis:agent xsi:schemaLocation=\(attr(Self.premisLocation)) version=\"3.0\">"
        x += identifier("agent", a.type, a.value)
        x += "<premis:agentName>\(text(a.name))</premis:agentName><premis:agentType>\(a.kind)</premis:agentType>"
        if let v = a.version { x += "<premis:agentVersion>\(text(v))</premis:agentVersion>" }
        return x + "</premis:agent>\n"
    }

    func identifier(_ kind: String, _ type: String, _ value: String) -> String {
        "<premis:\(kind)Identifier><premis:\(kind)IdentifierType>\(text(type))</premis:\(kind)IdentifierType>"
            + "<premis:\(kind)IdentifierValue>\(text(value))</premis:\(kind)IdentifierValue></premis:\(kind)Identifier>"
    }

    func linkingAgent(_ type: String, _ value: String, role: String, code: String) -> String {
        "<premis:linkingAgentIdentifier><premis:linkingAgentIdentifierType>\(text(type))</premis:linkingAgentIdentifierType>"
            + "<premis:linkingAgentIdentifierValue>\(text(value))</premis:linkingAgentIdentifierValue>"
            + "<premis:linkingAgentRole authority=\"eventRelatedAgentRole\" authorityURI=\"http://id.loc.gov/vocabulary/preservation/eventRelatedAgentRole\" "
            + "valueURI=\"http://id.loc.gov/vocabulary/preservation/eventRelatedAgentRole/\(code)\">\(role)</premis:linkingAgentRole>"
            + "</premis:linkingAgentIdentifier>"
    }

    /// bag → data → record (with its dmdSec) → folders → files.
    func structMap() -> String {
        final class Folder {
            var folders: [String: Folder] = [:]
            var order: [String] = []
            var files: [(name: String, id: String)] = []
            func folder(_ name: String) -> Folder {
                if let f = folders[name] { return f }
                let f = Folder()
                folders[name] = f
                order.append(name)
                return f
            }
        }
        var x = " <mets:structMap ID=\"structMap_1\" TYPE=\"physical\" LABEL=\"Exhibit Archive bag\">\n"
        x += "  <mets:div TYPE=\"Directory\" LABEL=\(attr(document.export.externalIdentifier)) DMDID=\"dmdSec_export\">\n"
        x += "   <mets:div TYPE=\"Directory\" LABEL=\"data\">\n"
        func render(_ f: Folder, _ indent: String) -> String {
            var s = ""
            for name in f.order {
                s += "\(indent)<mets:div TYPE=\"Directory\" LABEL=\(attr(name))>\n" + render(f.folders[name]!, indent + " ") + "\(indent)</mets:div>\n"
            }
            for file in f.files {
                s += "\(indent)<mets:div TYPE=\"Item\" LABEL=\(attr(file.name))><mets:fptr FILEID=\"\(file.id)\"/></mets:div>\n"
            }
            return s
        }
        for (n, r) in document.records.enumerated() {
            let root = Folder()
            for f in r.files {
                var parts = f.path.split(separator: "/").map(String.init)
                guard parts.count >= 3 else { continue }
                parts.removeFirst(2)  // data/<recordId>/
                var folder = root
                for p in parts.dropLast() { folder = folder.folder(p) }
                folder.files.append((parts.last!, "file-" + Self.fileUUID(document.export.externalIdentifier, f.path)))
            }
            x += "    <mets:div TYPE=\"Directory\" LABEL=\(attr(r.recordId.hex)) DMDID=\"dmdSec_\(n + 1)\">\n"
            x += render(root, "     ") + "    </mets:div>\n"
        }
        return x + "   </mets:div>\n  </mets:div>\n </mets:structMap>\n"
    }
}
