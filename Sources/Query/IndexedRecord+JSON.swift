import Foundation
import Ground

extension IndexedRecord {
    /// The record as `RecordBody` stores it: JSON with sorted keys and `/` escaped as `\/` —
    /// exactly the bytes `JSONEncoder` writes with `outputFormatting = [.sortedKeys]` (pinned by
    /// `RecordBodyJSONTests`), written directly (`JSONEncoder` was 3.6 % of the CPU of an
    /// `ingest --defer-media`). Absent optionals are omitted; `reportJSON` is written as base64
    /// (`""` in a stored body, whose report is kept apart). Keys are listed in sorted order; a
    /// field added to the type must be added here too (the test fails until it is).
    public func jsonBytes() -> [UInt8] {
        var w = JSONText(capacity: 2048, escapingSlashes: true)
        w.beginObject()
        if let analyses { w.key("analyses"); Self.write(analyses, &w) }
        w.field("captureTime", captureTime)
        if let derived { w.key("derived"); w.array(derived, Self.write) }
        w.field("failureCodes", failureCodes)
        w.key("files"); w.array(files, Self.write)
        w.field("ingestTime", ingestTime)
        w.field("integrity", integrity)
        w.field("keyFingerprint", keyFingerprint)
        w.field("kind", kind)
        w.field("recordId", recordId)
        w.field("reportJSON", reportJSON.base64EncodedString())
        if let sidecarVariants { w.key("sidecarVariants"); w.array(sidecarVariants, Self.write) }
        w.key("sidecars")
        w.beginObject()
        for sink in sidecars.keys.sorted(by: { JSONText.sortedKeyOrder($0.rawValue, $1.rawValue) }) {
            w.dynamicKey(sink.rawValue)
            w.string(sidecars[sink]!.rawValue)
        }
        w.endObject()
        w.field("trust", trust)
        w.field("tsaTime", tsaTime)
        w.key("variants"); w.array(variants, Self.write)
        w.endObject()
        return w.bytes
    }

    static func write(_ a: RecordAnalyses, _ w: inout JSONText) {
        w.beginObject()
        w.field("deliveryPath", a.deliveryPath)
        if let libraries = a.libraries {
            w.key("libraries")
            w.beginObject()
            for name in libraries.keys.sorted(by: JSONText.sortedKeyOrder) {
                w.dynamicKey(name)
                w.string(libraries[name]!)
            }
            w.endObject()
        }
        w.field("state", a.state)
        w.field("tool", a.tool)
        w.endObject()
    }

    static func write(_ d: DerivedBlob, _ w: inout JSONText) {
        w.beginObject()
        w.field("blobId", d.blobId)
        w.field("finding", d.finding)
        w.field("height", d.height)
        w.field("kind", d.kind)
        w.field("mediaType", d.mediaType)
        w.field("size", d.size)
        w.field("sourceBlobId", d.sourceBlobId)
        w.field("tool", d.tool)
        w.field("width", d.width)
        w.endObject()
    }

    static func write(_ f: StoredFile, _ w: inout JSONText) {
        w.beginObject()
        w.field("blobId", f.blobId)
        w.field("relativePath", f.relativePath)
        w.field("role", f.role)
        w.field("size", f.size)
        w.endObject()
    }

    static func write(_ v: SidecarVariant, _ w: inout JSONText) {
        w.beginObject()
        w.field("actualSha256", v.actualSha256)
        w.field("firstIngested", v.firstIngested)
        w.field("reportId", v.reportId)
        w.field("sink", v.sink)
        w.field("sourcePath", v.sourcePath)
        w.field("state", v.state)
        w.endObject()
    }

    static func write(_ v: Variant, _ w: inout JSONText) {
        w.beginObject()
        w.field("blobId", v.blobId)
        w.field("firstIngested", v.firstIngested)
        w.field("size", v.size)
        w.field("sourcePaths", v.sourcePaths)
        w.endObject()
    }
}
