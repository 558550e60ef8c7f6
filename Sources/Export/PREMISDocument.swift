import Custody
import Foundation
import Ingest

/// `PREMIS.xml`: one PREMIS 3 document (`premis:premis`) with every payload file as an object
/// (the same UUIDs, fixity, size and PRONOM format as METS.xml), every custody event of the
/// exported records shipped whole in custody.json plus the signing of custody.json — each with
/// its exact PREMIS event type, linked to the files it concerns and to its agents — and every
/// agent those events name: each tool version (software), each operator (person), each
/// organization. METS.xml keeps to Archivematica's profile; this file keeps everything.
struct PREMISDocument {
    static let fileName = "PREMIS.xml"
    let mets: METSDocument

    func xml() -> String {
        let document = mets.document
        let bagId = document.export.externalIdentifier
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<premis:premis xmlns:premis=\"http://www.loc.gov/premis/v3\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
        x += "xsi:schemaLocation=\(mets.attr(METSDocument.premisLocation)) version=\"3.0\">\n"
        var events: [UInt64: (CustodyEvent, [String])] = [:]
        for r in document.records {
            for f in r.files {
                let uuid = METSDocument.fileUUID(bagId, f.path)
                x += mets.premisObject(f, uuid: uuid, format: FileFormat.identify(path: mets.bag + "/" + f.path))
                    .replacingOccurrences(of: " xsi:schemaLocation=\(mets.attr(METSDocument.premisLocation)) version=\"3.0\"", with: "")
                for e in mets.eventsOf(r) where METSDocument.concerns(e, f, r) {
                    events[e.seq, default: (e, [])].1.append(uuid)
                }
            }
        }
        var agents: [(type: String, value: String, name: String, kind: String, version: String?)] = mets.agents
        func addAgent(_ a: (type: String, value: String, name: String, kind: String, version: String?)) {
            if !agents.contains(where: { $0.type == a.type && $0.value == a.value }) { agents.append(a) }
        }
        for seq in events.keys.sorted() {
            guard let (e, objects) = events[seq] else { continue }
            var event = mets.premisEvent(e, objectUUID: objects[0])
                .replacingOccurrences(of: " xsi:schemaLocation=\(mets.attr(METSDocument.premisLocation)) version=\"3.0\"", with: "")
            let more = objects.dropFirst().map {
                "<premis:linkingObjectIdentifier><premis:linkingObjectIdentifierType>UUID</premis:linkingObjectIdentifierType>"
                    + "<premis:linkingObjectIdentifierValue>\($0)</premis:linkingObjectIdentifierValue></premis:linkingObjectIdentifier>"
            }.joined()
            event = event.replacingOccurrences(of: "</premis:event>", with: more + "</premis:event>")
            x += event
            addAgent(("preservation system", "\(e.tool.name)-\(e.tool.version)", e.tool.name, "software", e.tool.version))
            addAgent(("exhibit-archive operator", e.operator, e.operator, "person", nil))
            if let org = e.organization, !org.isEmpty { addAgent(("organization", org, org, "organization", nil)) }
        }
        for a in agents {
            x += mets.premisAgent(a).replacingOccurrences(of: " xsi:schemaLocation=\(mets.attr(METSDocument.premisLocation)) version=\"3.0\"", with: "")
        }
        return x + "</premis:premis>\n"
    }
}
