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
