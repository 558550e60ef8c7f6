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
    // The formats of issue 16 (PNG, RIFF, TIFF, GIF, SVG, JPEG XL, ID3, FLAC, PDF); each code names
    // what was wrong, the offset where it was found (docs/c2pa.md, "Containers").
    /// Not a container we read (sniffed from the first bytes, never the file name).
    case unsupported
    /// A PNG or RIFF chunk, or a JPEG XL box, whose header or length does not hold.
    case badChunk(offset: Int64)
    /// A TIFF image file directory (or the C2PA / XMP entry in it) that does not hold.
    case badIFD(offset: Int64)
    /// A GIF block (extension, image descriptor, data sub-blocks) that does not hold.
    case badBlock(offset: Int64)
    /// SVG markup that does not scan as XML (unterminated or mismatched tag, bad attribute, …).
    case badXML(offset: Int64)
    /// The SVG manifest text is not base64.
    case badBase64(offset: Int64)
    /// An ID3v2 tag (header, extended header, frame) that does not hold.
    case badTag(offset: Int64)
    /// A FLAC file whose ID3v2 tag is not followed by `fLaC`.
    case notFLAC(offset: Int64)
    /// PDF syntax that does not hold (xref, trailer, object, stream).
    case badPDF(offset: Int64)
    /// A PDF protected by `/Encrypt`: its objects cannot be read without the key.
    case encrypted
    /// A chain that comes back to itself (TIFF IFD chain, PDF `/Prev` chain, object references).
    case cycle(offset: Int64)
    /// More chunks, blocks, IFDs or objects than the reader walks.
    case tooManyParts(offset: Int64)
    /// A BMFF C2PA `uuid` box of purpose `merkle` whose CBOR does not decode.
    case badMerkleBox(offset: Int64)

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
        case .unsupported: StatusCode.containerUnsupported
        case .badChunk: StatusCode.containerBadChunk
        case .badIFD: StatusCode.containerBadIFD
        case .badBlock: StatusCode.containerBadBlock
        case .badXML: StatusCode.containerBadXML
        case .badBase64: StatusCode.containerBadBase64
        case .badTag: StatusCode.containerBadTag
        case .notFLAC: StatusCode.containerNotFLAC
        case .badPDF: StatusCode.containerBadPDF
        case .encrypted: StatusCode.containerEncrypted
        case .cycle: StatusCode.containerCycle
        case .tooManyParts: StatusCode.containerTooManyParts
        case .badMerkleBox: StatusCode.containerBadMerkleBox
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
    /// Whether the carrier's own checksum holds (PNG: the `caBX` chunk's CRC-32); nil where the
    /// format has none. No hash covers it (the hard binding excludes the whole carrier).
    public let carrierChecksumMatches: Bool?

    public init(storeBytes: [UInt8], ranges: [Range<Int64>], merkleOffset: UInt64? = nil, carrierChecksumMatches: Bool? = nil) {
        self.storeBytes = storeBytes
        self.ranges = ranges
        self.merkleOffset = merkleOffset
        self.carrierChecksumMatches = carrierChecksumMatches
    }

    /// One range from the first carrier byte to the last.
    public var span: Range<Int64>? {
        guard let f = ranges.first, let l = ranges.last else { return nil }
        return f.lowerBound..<l.upperBound
    }
}
