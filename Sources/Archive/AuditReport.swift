import Ground

/// What an audit found wrong with one blob.
public struct BlobDamage: Equatable, Sendable, Codable {
    public struct Chunk: Equatable, Sendable, Codable {
        public let index: Int
        public let id: ContentID
        public init(index: Int, id: ContentID) {
            self.index = index
            self.id = id
        }
    }
    public let blob: ContentID
    public var missingChunks: [Chunk] = []
    public var damagedChunks: [Chunk] = []
    /// The record failed to decode, the blob hash differs, or LMDB reported corruption.
    public var problems: [String] = []

    public init(blob: ContentID) { self.blob = blob }
    public var isClean: Bool { missingChunks.isEmpty && damagedChunks.isEmpty && problems.isEmpty }
}

/// The result of an audit.
public struct AuditReport: Equatable, Sendable {
    public var blobsInStore = 0
    public var blobsChecked = 0
    public var bytesChecked: UInt64 = 0
    public var damaged: [BlobDamage] = []
    public var isClean: Bool { damaged.isEmpty }

    public init() {}

    /// `fraction` of `ids` (all of them at 1), chosen at random, at least one when there are
    /// any, in ID order.
    public static func sample(_ ids: [ContentID], fraction: Double) -> [ContentID] {
        guard fraction < 1.0 else { return ids }
        let keep = ids.isEmpty ? 0 : max(1, Int((Double(ids.count) * max(0, fraction)).rounded(.up)))
        return Array(ids.shuffled().prefix(keep)).sorted()
    }
}
