/// PDF and the C2PA manifest store carried as an embedded file referenced from the document
/// catalog's associated files (C2PA 2.x, A.3.6; c2pa-rs `pdf_io.rs`, `pdf.rs`):
///
///     trailer /Root → catalog << … /AF [ n 0 R … ] >>
///     n 0 obj << /AFRelationship /C2PA_Manifest /EF << /F m 0 R >> … >>   (a file specification)
///     m 0 obj << /Length L … >> stream STORE endstream
///
/// As c2pa-rs reads it: the first entry of `/AF` that is a reference to a dictionary whose
/// `/AFRelationship` is `/C2PA_Manifest`; its `/EF` `/F` stream's raw content — as stored, no
/// filter undone (lopdf's `content`) — is the store. The carrier range is that content, the span
/// c2pa-rs excludes from its data hash. A document that does not load is an error; a catalog
/// without a readable `/AF` has no store (c2pa-rs reads it so, with `.ok()?`); a file
/// specification found whose stream does not read is an error. An `/Encrypt`ed document whose
/// catalog names a store is `encrypted` (its streams cannot be read without the key).
public enum PDFContainer {
    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        var doc = try PDFDocument(source)
        guard let spec = try? fileSpecification(&doc) else { return .absent(reason: "none") }
        guard doc.trailer["Encrypt"] == nil else { throw .encrypted }
        let ef = try doc.resolve(spec["EF"])?.dictionaryValue
        guard case .stream(_, let content)? = try doc.resolve(ef?["F"]) else { throw .badPDF(offset: 0) }
        guard content.count <= Int64(ContainerLimits.maximumStoreSize) else { throw .manifestTooLarge }
        let store = try source.containerBytes(at: content.lowerBound, count: Int(content.count))
        return .found(ManifestLocation(storeBytes: store, ranges: [content]))
    }

    /// The C2PA file specification dictionary listed in the catalog's `/AF`, or nil.
    static func fileSpecification<S>(_ doc: inout PDFDocument<S>) throws(ContainerError) -> [String: PDFObject]? {
        guard let catalog = try doc.resolve(doc.trailer["Root"])?.dictionaryValue,
              let af = try doc.resolve(catalog["AF"])?.arrayValue else { return nil }
        for item in af {
            guard case .reference = item, let d = try doc.resolve(item)?.dictionaryValue,
                  try doc.resolve(d["AFRelationship"])?.nameValue == "C2PA_Manifest" else { continue }
            return d
        }
        return nil
    }

    /// The XMP packet: the raw content of the catalog's `/Metadata` stream when its `/Subtype`
    /// is `XML` (any case), as c2pa-rs reads it (no filter undone).
    public static func xmpPacket(in source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        var doc = try PDFDocument(source)
        guard let catalog = try doc.resolve(doc.trailer["Root"])?.dictionaryValue,
              case .stream(let d, let content)? = try doc.resolve(catalog["Metadata"]),
              try doc.resolve(d["Subtype"])?.nameValue?.lowercased() == "xml",
              content.count <= Int64(ContainerLimits.maximumXMP) else { return nil }
        return try source.containerBytes(at: content.lowerBound, count: Int(content.count))
    }
}
