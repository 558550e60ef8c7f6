import Foundation
import Ingest

/// `custody.jsonld`: the custody chain as CASE/UCO JSON-LD (CASE 1.x / UCO 1.x vocabulary).
///
/// Graph nodes:
/// - `uco-tool:Tool` — exhibit-archive and its version;
/// - `uco-identity:Identity` — the operator who exported;
/// - per payload file a `uco-observable:File` with a `uco-observable:FileFacet` (name, bag path,
///   size) and a `uco-observable:ContentDataFacet` (`sizeInBytes`, `hash`: `uco-types:Hash`,
///   method `SHA256`, value `xsd:hexBinary`);
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
        let bagId = "kb:bag-" + doc.export.externalIdentifier.replacingOccurrences(of: "urn:uuid:", with: "")
        let toolId = "kb:tool-exhibit-archive-" + doc.export.toolVersion
        let operatorId = "kb:identity-" + slug(doc.export.operatorName)
        graph.append(["@id": toolId, "@type": "uco-tool:Tool", "uco-core:name": doc.export.tool,
                      "uco-tool:version": doc.export.toolVersion])
        graph.append(["@id": operatorId, "@type": "uco-identity:Identity", "uco-core:name": doc.export.operatorName])
        var allFiles: [[String: Any]] = []
        for record in doc.records {
            var fileRefs: [[String: Any]] = []
            for (index, file) in record.files.enumerated() {
                let id = "kb:file-\(record.recordId)-\(index + 1)"
                fileRefs.append(["@id": id])
                allFiles.append(["@id": id])
                graph.append([
                    "@id": id, "@type": "uco-observable:File",
                    "uco-core:hasFacet": [
                        ["@id": id + "-file", "@type": "uco-observable:FileFacet",
                         "uco-observable:fileName": (file.path as NSString).lastPathComponent,
                         "uco-observable:filePath": file.path,
                         "uco-observable:sizeInBytes": ["@type": "xsd:integer", "@value": String(file.size)]],
                        ["@id": id + "-content", "@type": "uco-observable:ContentDataFacet",
                         "uco-observable:sizeInBytes": ["@type": "xsd:integer", "@value": String(file.size)],
                         "uco-observable:hash": [[
                            "@id": id + "-sha256", "@type": "uco-types:Hash",
                            "uco-types:hashMethod": ["@type": "uco-vocabulary:HashNameVocab", "@value": "SHA256"],
                            "uco-types:hashValue": ["@type": "xsd:hexBinary", "@value": file.sha256.hex],
                         ]]],
                    ],
                ])
            }
            for sequence in record.custodyEvents {
                guard let event = doc.custodyChain?.event(sequence) else { continue }
                let performer = "kb:identity-" + slug(event.operator)
                if !graph.contains(where: { ($0["@id"] as? String) == performer }) {
                    graph.append(["@id": performer, "@type": "uco-identity:Identity", "uco-core:name": event.operator])
                }
                graph.append([
                    "@id": "kb:custody-event-\(sequence)", "@type": "case-investigation:InvestigativeAction",
                    "uco-core:name": event.eventType.rawValue,
                    "uco-core:description": "custody log event \(sequence) (\(event.eventType.uri)): \(event.outcome.rawValue); \(event.outcomeDetail); chain hash \(event.hash)",
                    "uco-action:startTime": ["@type": "xsd:dateTime", "@value": event.time],
                    "uco-action:performer": ["@id": performer],
                    "uco-action:object": fileRefs,
                ])
            }
            let sidecars = record.sidecars.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            graph.append([
                "@id": "kb:provenance-\(record.recordId)", "@type": "case-investigation:ProvenanceRecord",
                "case-investigation:exhibitNumber": record.recordId.hex,
                "uco-core:description": "integrity \(record.integrity.rawValue); trust \(record.trust?.rawValue ?? "n/a"); sidecars: \(sidecars.isEmpty ? "none" : sidecars)",
                "uco-core:object": fileRefs,
            ])
        }
        graph.append([
            "@id": bagId, "@type": "case-investigation:InvestigativeAction",
            "uco-core:name": "replication",
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

    /// An IRI-safe fragment: letters, digits, `-`, `.`, `_`; anything else becomes `_`.
    static func slug(_ s: String) -> String {
        String(s.unicodeScalars.map { c -> Character in
            (c.isASCII && (CharacterSet.alphanumerics.contains(c) || c == "-" || c == "." || c == "_")) ? Character(c) : "_"
        })
    }
}
