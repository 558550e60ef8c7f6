import Ground

/// Why a media container could not be walked. `code` is stable; tests compare against it.
public enum ContainerError: Error, Equatable, Sendable {
    case notJPEG
    case notBMFF
    case truncated(offset: Int64)
    case badSegmentLength(offset: Int64)
    case badBoxSize(offset: Int64)
    case depthExceeded(offset: Int64)
    case tooManyManifestStores
    case offsetOverflow(offset: Int64)
    case manifestTooLarge
    case noInsertionPoint
    case sizeChanged(expected: Int, actual: Int)
    case io(ByteSourceError)

    public var code: String {
        switch self {
        case .notJPEG: StatusCode.containerNotJPEG
        case .notBMFF: StatusCode.containerNotBMFF
        case .truncated: StatusCode.containerTruncated
        case .badSegmentLength: StatusCode.containerBadSegmentLength
        case .badBoxSize: StatusCode.containerBadBoxSize
        case .depthExceeded: StatusCode.containerDepthExceeded
        case .tooManyManifestStores: StatusCode.containerTooManyManifestStores
        case .offsetOverflow: StatusCode.containerOffsetOverflow
        case .manifestTooLarge: StatusCode.containerManifestTooLarge
        case .noInsertionPoint: StatusCode.containerNoInsertionPoint
        case .sizeChanged: StatusCode.containerSizeChanged
        case .io(let e): e.code
        }
    }
}

/// What a container holds in the way of an embedded manifest store.
public enum ManifestLookup: Sendable, Equatable {
    /// The store's exact bytes and the byte ranges of the file that carry it (segments or box).
    case found(ManifestLocation)
    /// No usable store; `reason` says why (`none`, `sequenceGap`, `duplicateSegment`, …).
    case absent(reason: String)
}

public struct ManifestLocation: Sendable, Equatable {
    public let storeBytes: [UInt8]
    /// File ranges occupied by the carrier (JPEG APP11 segments incl. markers; the BMFF `uuid` box).
    public let ranges: [Range<Int64>]
    /// BMFF only: the merkle-offset field of the C2PA `uuid` box.
    public let merkleOffset: UInt64?

    public init(storeBytes: [UInt8], ranges: [Range<Int64>], merkleOffset: UInt64? = nil) {
        self.storeBytes = storeBytes
        self.ranges = ranges
        self.merkleOffset = merkleOffset
    }

    /// One range from the first carrier byte to the last.
    public var span: Range<Int64>? {
        guard let f = ranges.first, let l = ranges.last else { return nil }
        return f.lowerBound..<l.upperBound
    }
}
