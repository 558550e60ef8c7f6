import Foundation
import Ground

/// A reader of the one JSON shape record bodies are written in (`jsonBytes()`), beside
/// Foundation's `JSONDecoder`, whose `Codable` walk was most of the cost of reading a record
/// (`analyze` reads each record twice: in its worker and again in the writer's transaction).
///
/// It accepts only a strict subset of JSON (`Ground.StrictJSONReader`), in which it decodes
/// exactly what `JSONDecoder` decodes: each object holds only the type's own keys, each at most
/// once; vocabulary words and IDs as their `Codable` forms read them; `reportJSON` empty (a
/// stored body's); no `null`. Anything else gives nil and `RecordBody.decode` asks `JSONDecoder`,
/// so values and error texts do not change. `RecordBodyJSONTests` compares the two readers on
/// written records and on every one-byte change of one.
extension IndexedRecord {
    public init?(strictJSON buffer: UnsafeRawBufferPointer) {
        var r = StrictJSONReader(buffer)
        guard let record = r.indexedRecord(), r.atEnd() else { return nil }
        self = record
    }
}

private extension StrictJSONReader {
    mutating func indexedRecord() -> IndexedRecord? {
        var recordId, keyFingerprint: ContentID?
        var kind: MediaKind?
        var integrity: Integrity?
        var trust: Trust?
        var captureTime, tsaTime, ingestTime: String?
        var failureCodes: [String]?
        var sidecars: [SidecarSink: SidecarState]?
        var variants: [IndexedRecord.Variant]?
        var files: [IndexedRecord.StoredFile]?
        var emptyReport: Bool?
        var derived: [DerivedBlob]?
        var sidecarVariants: [IndexedRecord.SidecarVariant]?
        var analyses: RecordAnalyses?
        let ok = object { r, key in
            switch key {
            case "recordId": return readOnce(&recordId) { r.contentID() }
            case "kind": return readOnce(&kind) { r.vocabulary(MediaKind.self) }
            case "integrity": return readOnce(&integrity) { r.vocabulary(Integrity.self) }
            case "trust": return readOnce(&trust) { r.vocabulary(Trust.self) }
            case "keyFingerprint": return readOnce(&keyFingerprint) { r.contentID() }
            case "captureTime": return readOnce(&captureTime) { r.escapedString() }
            case "tsaTime": return readOnce(&tsaTime) { r.escapedString() }
            case "ingestTime": return readOnce(&ingestTime) { r.escapedString() }
            case "failureCodes": return readOnce(&failureCodes) { r.escapedStrings() }
            case "sidecars": return readOnce(&sidecars) { r.sidecarStates() }
            case "variants": return readOnce(&variants) { r.array { $0.variant() } }
            case "files": return readOnce(&files) { r.array { $0.storedFile() } }
            case "reportJSON": return readOnce(&emptyReport) { r.string() == "" ? true : nil }
            case "derived": return readOnce(&derived) { r.array { $0.derivedBlob() } }
            case "sidecarVariants": return readOnce(&sidecarVariants) { r.array { $0.sidecarVariant() } }
            case "analyses": return readOnce(&analyses) { r.recordAnalyses() }
            default: return false
            }
        }
        guard ok, let recordId, let kind, let integrity, let ingestTime, let failureCodes, let sidecars, let variants,
              let files, emptyReport != nil else { return nil }
        var record = IndexedRecord(recordId: recordId, kind: kind, integrity: integrity, trust: trust, keyFingerprint: keyFingerprint,
                                   captureTime: captureTime, tsaTime: tsaTime, ingestTime: ingestTime, failureCodes: failureCodes,
                                   sidecars: sidecars, variants: variants, files: files, reportJSON: Data())
        record.derived = derived
        record.sidecarVariants = sidecarVariants
        record.analyses = analyses
        return record
    }

    /// `{ sink: state, … }`, each sink once.
    mutating func sidecarStates() -> [SidecarSink: SidecarState]? {
        var out: [SidecarSink: SidecarState] = [:]
        let ok = object { r, key in
            guard let sink = SidecarSink(rawValue: key), out[sink] == nil, let state = r.vocabulary(SidecarState.self) else { return false }
            out[sink] = state
            return true
        }
        return ok ? out : nil
    }

    mutating func variant() -> IndexedRecord.Variant? {
        var blobId: ContentID?
        var size: UInt64?
        var sourcePaths: [String]?
        var firstIngested: String?
        let ok = object { r, key in
            switch key {
            case "blobId": return readOnce(&blobId) { r.contentID() }
            case "size": return readOnce(&size) { r.uint64() }
            case "sourcePaths": return readOnce(&sourcePaths) { r.escapedStrings() }
            case "firstIngested": return readOnce(&firstIngested) { r.escapedString() }
            default: return false
            }
        }
        guard ok, let blobId, let size, let sourcePaths, let firstIngested else { return nil }
        return IndexedRecord.Variant(blobId: blobId, size: size, sourcePaths: sourcePaths, firstIngested: firstIngested)
    }

    mutating func storedFile() -> IndexedRecord.StoredFile? {
        var role: FileRole?
        var relativePath: String?
        var blobId: ContentID?
        var size: UInt64?
        let ok = object { r, key in
            switch key {
            case "role": return readOnce(&role) { r.vocabulary(FileRole.self) }
            case "relativePath": return readOnce(&relativePath) { r.escapedString() }
            case "blobId": return readOnce(&blobId) { r.contentID() }
            case "size": return readOnce(&size) { r.uint64() }
            default: return false
            }
        }
        guard ok, let role, let relativePath, let blobId, let size else { return nil }
        return IndexedRecord.StoredFile(role: role, relativePath: relativePath, blobId: blobId, size: size)
    }

    mutating func derivedBlob() -> DerivedBlob? {
        var kind, mediaType, tool, finding: String?
        var blobId, sourceBlobId: ContentID?
        var size: UInt64?
        var width, height: Int?
        let ok = object { r, key in
            switch key {
            case "kind": return readOnce(&kind) { r.escapedString() }
            case "blobId": return readOnce(&blobId) { r.contentID() }
            case "size": return readOnce(&size) { r.uint64() }
            case "mediaType": return readOnce(&mediaType) { r.escapedString() }
            case "width": return readOnce(&width) { r.int() }
            case "height": return readOnce(&height) { r.int() }
            case "sourceBlobId": return readOnce(&sourceBlobId) { r.contentID() }
            case "tool": return readOnce(&tool) { r.escapedString() }
            case "finding": return readOnce(&finding) { r.escapedString() }
            default: return false
            }
        }
        guard ok, let kind, let sourceBlobId, let tool else { return nil }
        return DerivedBlob(kind: kind, blobId: blobId, size: size, mediaType: mediaType, width: width, height: height,
                           sourceBlobId: sourceBlobId, tool: tool, finding: finding)
    }

    mutating func sidecarVariant() -> IndexedRecord.SidecarVariant? {
        var sink: SidecarSink?
        var state: SidecarState?
        var actualSha256, reportId: ContentID?
        var sourcePath, firstIngested: String?
        let ok = object { r, key in
            switch key {
            case "sink": return readOnce(&sink) { r.vocabulary(SidecarSink.self) }
            case "state": return readOnce(&state) { r.vocabulary(SidecarState.self) }
            case "actualSha256": return readOnce(&actualSha256) { r.contentID() }
            case "sourcePath": return readOnce(&sourcePath) { r.escapedString() }
            case "firstIngested": return readOnce(&firstIngested) { r.escapedString() }
            case "reportId": return readOnce(&reportId) { r.contentID() }
            default: return false
            }
        }
        guard ok, let sink, let state, let sourcePath, let firstIngested else { return nil }
        var v = IndexedRecord.SidecarVariant(sink: sink, state: state, actualSha256: actualSha256, sourcePath: sourcePath,
                                             firstIngested: firstIngested)
        v.reportId = reportId
        return v
    }

    mutating func recordAnalyses() -> RecordAnalyses? {
        var state: AnalysisState?
        var tool, deliveryPath: String?
        var libraries: [String: String]?
        let ok = object { r, key in
            switch key {
            case "state": return readOnce(&state) { r.vocabulary(AnalysisState.self) }
            case "tool": return readOnce(&tool) { r.escapedString() }
            case "deliveryPath": return readOnce(&deliveryPath) { r.escapedString() }
            case "libraries": return readOnce(&libraries) { r.stringMap() }
            default: return false
            }
        }
        guard ok, let state else { return nil }
        return RecordAnalyses(state: state, tool: tool, libraries: libraries, deliveryPath: deliveryPath)
    }

    /// `{ "name": "text", … }`, each name once.
    mutating func stringMap() -> [String: String]? {
        var out: [String: String] = [:]
        let ok = object { r, key in
            guard out[key] == nil, let value = r.escapedString() else { return false }
            out[key] = value
            return true
        }
        return ok ? out : nil
    }
}
