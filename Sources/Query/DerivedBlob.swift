import Ground

/// A blob the archive made from evidence (today: a thumbnail of the delivery file), stored in
/// the CAS for convenience. Never evidence: it is not in `IndexedRecord.files` or `variants`,
/// never exported in a bag's payload, never compared with anything signed, and can be made
/// again from its source blob.
public struct DerivedBlob: Codable, Sendable, Equatable {
    /// `thumbnail`.
    public var kind: String
    /// CAS blob ID (SHA-256) of the derived bytes; nil when it could not be made (see `finding`).
    public var blobId: ContentID?
    public var size: UInt64?
    /// MIME type of the derived bytes (`image/jpeg`).
    public var mediaType: String?
    public var width: Int?
    public var height: Int?
    /// The evidence blob it was made from (the variant's delivery file).
    public var sourceBlobId: ContentID
    /// What made it, e.g. `libavcodec mjpeg 59.37.100`.
    public var tool: String
    /// Why there is no blob (`media.…` error code and text), nil when it was made.
    public var finding: String?

    public init(kind: String, blobId: ContentID?, size: UInt64?, mediaType: String?, width: Int?, height: Int?,
                sourceBlobId: ContentID, tool: String, finding: String?) {
        self.kind = kind
        self.blobId = blobId
        self.size = size
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.sourceBlobId = sourceBlobId
        self.tool = tool
        self.finding = finding
    }
}
