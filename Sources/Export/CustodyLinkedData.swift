import Foundation
import Ingest

/// `custody.jsonld`: the custody chain as CASE/UCO JSON-LD (CASE 1.x / UCO 1.x vocabulary).
///
/// Graph nodes:
/// - `uco-tool:Tool` — exhibit-archive and its version;
/// - `uco-identity:Identity` — the operator who exported;
/// - per payload file a `uco-observable:File` with a `uco-observable:FileFacet` (name, bag path,
///   size) and a `uco-observable:ContentDataFacet` (`sizeInBytes`, `hash`: `uco-types:Hash`,
///   `hashMethod` `SHA256` typed `xsd:string` (the value of `uco-vocabulary:HashNameVocab`),
///   value `xsd:hexBinary`); every node's IRI ends in a UUID (the file's is METS.xml's);
/// - per custody event of an exported record (never a redacted one, never another record's)
///   a `case-investigation:InvestigativeAction`
///   (PREMIS event type as name, time, objects = the record's files), and the export itself
///   as an `InvestigativeAction` (`replication`) whose result is the bag's files;
/// - per record a `case-investigation:ProvenanceRecord` (`exhibitNumber` = record ID,
///   `uco-core:object` = its files, description = integrity and sidecar states).
public enum CustodyLinkedData {
    static let context: [String: String] = [
        "kb": "urn:exhibit-archive:",
        "case-investigation": "https://ontology.caseontology.org/case/investigation/",
        "uco-action": "https://ontology.unifiedcyberontology.org/uco/action/",
        "uco-core": "https://ontology.unifiedcyberontology.org/uco/core/",
        "uco-identity": "https://ontology.unifiedcyberontology.org/uco/identity/",
        "uco-observable": "https://ontology.unifiedcyberontology.org/uco/observable/",
        "uco-tool": "https://ontology.unifiedcyberontology.org/uco/tool/",
        "uco-types": "https://ontology.unifiedcyberontology.org/uco/types/",
        "uco-vocabulary": "https://ontology.unifiedcyberontology.org/uco/vocabulary/",
        "xsd": "http://www.w3.org/2001/XMLSchema#",
    ]

    public static func document(_ doc: CustodyDocument) -> [UInt8] {
        var graph: [[String: Any]] = []
        let scope = doc.export.externalIdentifier
        /// `kb:<kind>-<UUID>`: every IRI ends in a UUID (made from the name within this export,
        /// so a file's UUID is the one METS.xml gives it).
        func iri(_ kind: String, _ name: String) -> String { "kb:\(kind)-" + NameUUID.make(scope, name) }
        let bagId = "kb:bag-" + doc.export.externalIdentifier.replacingOccurrences(of: "urn:uuid:", with: "")
        let toolId = iri("tool", "tool:\(doc.export.tool) \(doc.export.toolVersion)")
        let operatorId = iri("identity", "operator:" + doc.export.operatorName)
        graph.append(["@id": toolId, "@type": "uco-tool:Tool", "uco-core:name": doc.export.tool,
                      "uco-tool:version": doc.export.toolVersion])
        graph.append(["@id": operatorId, "@type": "uco-identity:Identity", "uco-core:name": doc.export.operatorName])
        var allFiles: [[String: Any]] = []
        for record in doc.records {
            var fileRefs: [[String: Any]] = []
            for file in record.files {
                let uuid = METSDocument.fileUUID(scope, file.path)
                let id = "kb:file-" + uuid
                fileRefs.append(["@id": id])
                allFiles.append(["@id": id])
                graph.append([
                    "@id": id, "@type": "uco-observable:File",
                    "uco-core:hasFacet": [
                        ["@id": iri("file-facet", "file-facet:" + file.path), "@type": "uco-observable:FileFacet",
                         "uco-observable:fileName": (file.path as NSString).lastPathComponent,
                         "uco-observable:filePath": file.path,
                         "uco-observable:sizeInBytes": ["@type": "xsd:integer", "@value": String(file.size)]],
                        ["@id": iri("content-data-facet", "content:" + file.path), "@type": "uco-observable:ContentDataFacet",
                         "uco-observable:sizeInBytes": ["@type": "xsd:integer", "@value": String(file.size)],
                         "uco-observable:hash": [[
                            "@id": iri("hash", "sha256:" + file.path), "@type": "uco-types:Hash",
                            // The vocabulary's value as an xsd:string literal (UCO 1.4+).
                            "uco-types:hashMethod": ["@type": "xsd:string", "@value": "SHA256"],
                            "uco-types:hashValue": ["@type": "xsd:hexBinary", "@value": file.sha256.hex],
                         ]]],
                    ],
                ])
            }
            for sequence in record.custodyEvents {
                guard let event = doc.custodyChain?.event(sequence) else { continue }
                let performer = iri("identity", "operator:" + event.operator)
                if !graph.contains(where: { ($0["@id"] as? String) == performer }) {
                    graph.append(["@id": performer, "@type": "uco-identity:Identity", "uco-core:name": event.operator])
                }
                graph.append([
                    "@id": iri("custody-event", "event:\(sequence)"), "@type": "case-investigation:InvestigativeAction",
                    "uco-core:name": event.eventType.rawValue,
                    "uco-core:description": "custody log event \(sequence) (\(event.eventType.uri)): \(event.outcome.rawValue); \(event.outcomeDetail); chain hash \(event.hash)",
                    "uco-action:startTime": ["@type": "xsd:dateTime", "@value": event.time],
                    "uco-action:performer": ["@id": performer],
                    "uco-action:object": fileRefs,
                ])
            }
            let sidecars = record.sidecars.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            graph.append([
                "@id": iri("provenance-record", "record:" + record.recordId.hex), "@type": "case-investigation:ProvenanceRecord",
                "case-investigation:exhibitNumber": record.recordId.hex,
                "uco-core:description": "integrity \(record.integrity.rawValue); trust \(record.trust?.rawValue ?? "n/a"); sidecars: \(sidecars.isEmpty ? "none" : sidecars)",
                "uco-core:object": fileRefs,
            ])
        }
        graph.append([
            "@id": bagId, "@type": "case-investigation:InvestigativeAction",
            "uco-core:name": doc.custodyChain.flatMap { c in doc.export.replicationEvent.flatMap { c.event($0)?.eventType.rawValue } } ?? "dissemination",
            "uco-core:description": "BagIt export \(doc.export.externalIdentifier)"
                + (doc.export.caseName.map { " for case \($0)" } ?? ""),
            "uco-action:startTime": ["@type": "xsd:dateTime", "@value": doc.export.time],
            "uco-action:performer": ["@id": operatorId],
            "uco-action:instrument": [["@id": toolId]],
            "uco-action:result": allFiles,
        ])
        let root: [String: Any] = ["@context": context, "@graph": graph]
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Array(data) + [0x0A]
    }
}
