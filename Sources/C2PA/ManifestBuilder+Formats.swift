import Crypto

extension ManifestBuilder {
    /// How a format's writer embeds a store: the asset with the store in it and the exclusions of
    /// its `c2pa.hash.data` (what c2pa-rs excludes for that format), and the same-length replace.
    struct Embedding {
        let embed: ([UInt8], [UInt8]) throws(ContainerError) -> (bytes: [UInt8], exclusions: [Range<Int>])
        let replace: ([UInt8], [UInt8]) throws(ContainerError) -> [UInt8]
    }

    static func embedding(for format: ContainerFormat) -> Embedding? {
        switch format {
        case .png: Embedding(embed: { s, a throws(ContainerError) in let e = try PNGContainer.embed(s, into: a); return (e.bytes, [e.range]) },
                             replace: { s, a throws(ContainerError) in try PNGContainer.replace(s, in: a) })
        case .webp, .wav, .avi, .riff:
            Embedding(embed: { s, a throws(ContainerError) in let e = try RIFFContainer.embed(s, into: a); return (e.bytes, [e.range]) },
                      replace: { s, a throws(ContainerError) in try RIFFContainer.replace(s, in: a) })
        case .tiff, .dng:
            Embedding(embed: { s, a throws(ContainerError) in
                let e = try TIFFContainer.embed(s, into: a)
                return (e.bytes, [e.countField, e.range])
            }, replace: { s, a throws(ContainerError) in try TIFFContainer.replace(s, in: a) })
        case .gif: Embedding(embed: { s, a throws(ContainerError) in let e = try GIFContainer.embed(s, into: a); return (e.bytes, [e.range]) },
                             replace: { s, a throws(ContainerError) in try GIFContainer.replace(s, in: a) })
        case .svg: Embedding(embed: { s, a throws(ContainerError) in let e = try SVGContainer.embed(s, into: a); return (e.bytes, [e.range]) },
                             replace: { s, a throws(ContainerError) in try SVGContainer.replace(s, in: a) })
        case .jxl: Embedding(embed: { s, a throws(ContainerError) in let e = try JXLContainer.embed(s, into: a); return (e.bytes, [e.range]) },
                             replace: { s, a throws(ContainerError) in try JXLContainer.replace(s, in: a) })
        case .mp3, .flac:
            Embedding(embed: { s, a throws(ContainerError) in let e = try ID3Container.embed(s, into: a); return (e.bytes, [e.range]) },
                      replace: { s, a throws(ContainerError) in try ID3Container.replace(s, in: a) })
        case .pdf: Embedding(embed: { s, a throws(ContainerError) in let e = try PDFContainer.embed(s, into: a); return (e.bytes, [e.range]) },
                             replace: { s, a throws(ContainerError) in try PDFContainer.replace(s, in: a) })
        case .jpeg, .bmff: nil
        }
    }

    /// `asset` without its manifest store (the "stripped" fault class): the carrier removed as
    /// c2pa-rs's `remove_cai_store` does (TIFF: the C2PA entry; PDF: the catalog's `/AF`, by an
    /// incremental update). JPEG and BMFF: not here (their writers predate this; tests strip
    /// those with their own helpers).
    public static func strip(_ asset: [UInt8], format: ContainerFormat) throws(ContainerError) -> [UInt8] {
        switch format {
        case .png: try PNGContainer.remove(from: asset)
        case .webp, .wav, .avi, .riff: try RIFFContainer.remove(from: asset)
        case .tiff, .dng: try TIFFContainer.remove(from: asset)
        case .gif: try GIFContainer.remove(from: asset)
        case .svg: try SVGContainer.remove(from: asset)
        case .jxl: try JXLContainer.remove(from: asset)
        case .mp3, .flac: try ID3Container.remove(from: asset)
        case .pdf: try PDFContainer.remove(from: asset)
        case .jpeg, .bmff: throw .unsupported
        }
    }

    /// `asset` (with a store) with the store replaced by `store` of the same length, the carrier
    /// framing written again (a PNG's CRC recomputed): the tests' way to flip a byte inside the
    /// claim or the signature of any format, whatever its carrier encoding (base64 in SVG,
    /// sub-blocks in GIF).
    public static func replaceStore(_ store: [UInt8], in asset: [UInt8], format: ContainerFormat) throws(ContainerError) -> [UInt8] {
        if format == .jpeg { return try JPEGContainer.replace(store, in: asset) }
        if format == .bmff { return try BMFFContainer.replace(store, in: asset) }
        guard let e = embedding(for: format) else { throw .unsupported }
        return try e.replace(store, asset)
    }

    /// `asset` (holding no store) of `format` signed the way c2pa-rs signs that format: a
    /// `c2pa.hash.data` assertion excluding the carrier (for TIFF also the C2PA entry's count
    /// field), placeholder store → embed → hash → final store of the same length → replace.
    /// JPEG and ISO BMFF go through `signJPEG` / `signMP4`.
    public func sign(_ asset: [UInt8], format: ContainerFormat) throws(BuildError) -> [UInt8] {
        if format == .jpeg { return try signJPEG(asset) }
        if format == .bmff { return try signMP4(asset) }
        guard let e = Self.embedding(for: format) else { throw .container(.unsupported) }
        let reserve = try signatureReserve()
        func hashAssertion(_ exclusions: [Range<Int>], _ hash: [UInt8]) -> (String, CBOR) {
            (DataHashAssertion.label, DataHashAssertion(
                exclusions: exclusions.map { .init(start: UInt64($0.lowerBound), length: UInt64($0.count)) }, hash: hash).cbor)
        }
        do {
            var exclusions: [Range<Int>] = []
            var embedded: [UInt8] = []
            for _ in 0..<8 {
                let placeholder = try store(hashAssertion: hashAssertion(exclusions, [UInt8](repeating: 0, count: 32)),
                                            signatureSize: reserve, placeholder: true)
                let (bytes, actual) = try e.embed(placeholder, asset)
                embedded = bytes
                if actual == exclusions { break }
                exclusions = actual
            }
            let hash = try DataHashAssertion(exclusions: exclusions.map { .init(start: UInt64($0.lowerBound), length: UInt64($0.count)) },
                                             hash: []).computeHash(over: MemoryByteSource(embedded), algorithm: .sha256)
            let final = try store(hashAssertion: hashAssertion(exclusions, hash), signatureSize: reserve, placeholder: false)
            return try e.replace(final, embedded)
        } catch let e as BuildError { throw e } catch let e as ContainerError { throw .container(e) }
        catch let e as HashAssertionError { throw .hash(e) } catch { throw .layoutUnstable }
    }
}
