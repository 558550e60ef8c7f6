import Ground

/// What an MP4 or MOV states in its `moov` box (ISO/IEC 14496-12, QuickTime File Format), read
/// without libavformat: the movie's time scale and duration and, per track, what libavformat's
/// `mov` demuxer turns into stream facts at `avformat_open_input` (no frame is decoded there):
///
///     moov = mvhd trak+ …        mvhd = version:u8 flags:u24 times timescale:u32 duration:(u32 | u64 if v1) …
///     trak = tkhd [edts] mdia               mdia = mdhd hdlr minf        minf = … stbl
///     stbl = stsd stts [ctts] [stss] stsc stsz (stco | co64) …
///
/// Only the shapes whose facts this reader reproduces exactly are described: one `moov`, not
/// fragmented (no `mvex`, no top-level `moof`, `sidx`, `styp` or `ssix`), every track a video (`avc1`/`avc3` H.264,
/// `hvc1`/`hev1` HEVC) or an audio track (`mp4a` carrying MPEG-4 AAC, objectTypeIndication
/// 0x40 with a two-byte AudioSpecificConfig), one sample entry each, sample tables that agree
/// (as many samples in `stts`, `stsz` and `stsc` × chunks), no negative composition offsets.
/// Edit lists are not read: the project opens MP4s with libavformat's `ignore_editlist`
/// (`FormatInput`), so they change no fact. Anything else is a `MovieHeaderError`, and `MediaFacts` asks
/// libavformat, as before (docs/media.md "MP4/MOV facts from the `moov` box").
struct MovieHeader: Equatable, Sendable {
    /// `mvhd`: units per second and the movie's duration in them.
    var timescale: UInt32
    var duration: UInt64
    var tracks: [Track]

    struct Track: Equatable, Sendable {
        enum Media: Equatable, Sendable {
            /// libavcodec's codec name, the sample entry's coded size.
            case video(codec: String, width: Int, height: Int)
            /// `aac`; channels and rate from the AudioSpecificConfig, bits from the sample entry,
            /// the elementary stream descriptor's average bit rate.
            case audio(codec: String, channels: Int, sampleRate: Int, bitsPerSample: Int, averageBitRate: UInt32)
        }
        var media: Media
        /// `mdhd`: units per second and the media's duration in them.
        var timescale: UInt32
        var mediaDuration: UInt64
        var table: SampleTable
    }

    /// What the sample tables add up to.
    struct SampleTable: Equatable, Sendable {
        /// `stts`: samples, their summed durations, number of entries, the first entry's delta.
        var samples: UInt64
        var duration: UInt64
        var timeEntries: Int
        var firstDelta: UInt32
        /// `stsz`: the summed sample sizes.
        var bytes: UInt64
    }

    /// Tracks per movie and samples per track this reader accepts (libavformat allocates an
    /// index entry per sample; beyond these a hostile header is left to it).
    static let maximumTracks = MediaLimits.maxStreams
    static let maximumSamples: UInt64 = 50_000_000

    static let moov = MovieBoxes.fourCC("moov"), mvex = MovieBoxes.fourCC("mvex")
    static let segmentBoxes: Set<UInt32> = [MovieBoxes.fourCC("moof"), MovieBoxes.fourCC("sidx"), MovieBoxes.fourCC("styp"),
                                            MovieBoxes.fourCC("ssix")]
    static let mvhd = MovieBoxes.fourCC("mvhd"), trak = MovieBoxes.fourCC("trak"), tref = MovieBoxes.fourCC("tref")
    static let mdia = MovieBoxes.fourCC("mdia")
    static let mdhd = MovieBoxes.fourCC("mdhd"), hdlr = MovieBoxes.fourCC("hdlr"), minf = MovieBoxes.fourCC("minf")
    static let stbl = MovieBoxes.fourCC("stbl"), vide = MovieBoxes.fourCC("vide"), soun = MovieBoxes.fourCC("soun")

    init(reading source: any ByteSource) throws(MovieHeaderError) {
        var r = MovieBoxes(source)
        let top = try r.boxes(in: 0..<r.count, depth: 0)
        guard top.first?.type == MovieBoxes.fourCC("ftyp") else { throw .notMovie }
        // Fragments, or a segment index (libavformat's `mov_read_sidx` rewrites stream durations).
        if top.contains(where: { Self.segmentBoxes.contains($0.type) }) { throw .fragmented }
        guard let moov = try MovieBoxes.single(Self.moov, in: top) else { throw .noMovie }
        let children = try r.boxes(in: moov.body, depth: 1)
        if children.contains(where: { $0.type == Self.mvex }) { throw .fragmented }
        guard let mvhd = try MovieBoxes.single(Self.mvhd, in: children) else { throw .missingBox("mvhd") }
        (timescale, duration) = try Self.timing(mvhd, r)
        let traks = children.filter { $0.type == Self.trak }
        guard !traks.isEmpty else { throw .missingBox("trak") }
        guard traks.count <= Self.maximumTracks else { throw .tooManyBoxes }
        var tracks: [Track] = []
        for trak in traks { tracks.append(try Self.track(trak, &r)) }
        self.tracks = tracks
    }

    /// `mvhd` or `mdhd` (same layout up to the duration): time scale and duration.
    static func timing(_ box: MovieBoxes.Box, _ r: MovieBoxes) throws(MovieHeaderError) -> (UInt32, UInt64) {
        let b = box.body.lowerBound
        let version = try r.u8(b)
        let (scaleAt, needed) = version == 1 ? (b + 20, 32) : (b + 12, 20)
        guard version <= 1, box.body.count >= needed else { throw .badBox(MovieBoxes.name(box.type)) }
        let scale = try r.u32(scaleAt)
        let duration = version == 1 ? try r.u64(scaleAt + 4) : UInt64(try r.u32(scaleAt + 4))
        // libavformat reads the scale as a signed 32-bit value and replaces one ≤ 0; the duration
        // as a signed 64-bit one.
        guard scale > 0, scale <= UInt32(Int32.max), duration <= UInt64(Int64.max) else { throw .badBox(MovieBoxes.name(box.type)) }
        return (scale, duration)
    }

    static func track(_ trak: MovieBoxes.Box, _ r: inout MovieBoxes) throws(MovieHeaderError) -> Track {
        let children = try r.boxes(in: trak.body, depth: 2)
        // A chapter or timecode reference changes streams libavformat reports: left to it.
        if children.contains(where: { $0.type == tref }) { throw .unsupportedTrack("tref") }
        guard let mdia = try MovieBoxes.single(Self.mdia, in: children) else { throw .missingBox("mdia") }
        let parts = try r.boxes(in: mdia.body, depth: 3)
        guard let mdhd = try MovieBoxes.single(Self.mdhd, in: parts), let hdlr = try MovieBoxes.single(Self.hdlr, in: parts),
              let minf = try MovieBoxes.single(Self.minf, in: parts) else { throw .missingBox("mdhd/hdlr/minf") }
        // libavformat reads in file order: a media header after the tables would override them.
        guard mdhd.start < minf.start else { throw .badBox("mdhd") }
        let (timescale, mediaDuration) = try Self.timing(mdhd, r)
        guard hdlr.body.count >= 12 else { throw .badBox("hdlr") }
        let handler = try r.u32(hdlr.body.lowerBound + 8)
        guard handler == vide || handler == soun else { throw .unsupportedTrack(MovieBoxes.name(handler)) }
        let minfChildren = try r.boxes(in: minf.body, depth: 4)
        // QuickTime's data handler (`dhlr` `alis`/`url `) sets no stream type; any other would.
        for h in minfChildren where h.type == Self.hdlr {
            guard h.body.count >= 12 else { throw .badBox("hdlr") }
            let type = try r.u32(h.body.lowerBound + 8)
            guard type == MovieBoxes.fourCC("alis") || type == MovieBoxes.fourCC("url ") else { throw .unsupportedTrack("hdlr") }
        }
        guard let stbl = try MovieBoxes.single(Self.stbl, in: minfChildren) else { throw .missingBox("stbl") }
        let tables = try r.boxes(in: stbl.body, depth: 5)
        let media = try Self.sampleEntry(in: tables, video: handler == vide, &r)
        let table = try Self.sampleTable(tables, r)
        return Track(media: media, timescale: timescale, mediaDuration: mediaDuration, table: table)
    }
}

/// Why `MovieHeader` declined; `MediaFacts` then asks libavformat. `code` is stable.
enum MovieHeaderError: Error, Equatable, Sendable {
    case notMovie
    case truncated(at: Int)
    case trailingData(at: Int)
    case badBoxSize(at: Int)
    case tooDeep(at: Int)
    case tooManyBoxes
    case duplicateBox(String)
    case missingBox(String)
    case badBox(String)
    case noMovie
    case fragmented
    case unsupportedTrack(String)
    case unsupportedCodec(String)
    case inconsistentTables(String)

    var code: String {
        switch self {
        case .notMovie: StatusCode.movieHeaderNotMovie
        case .truncated: StatusCode.movieHeaderTruncated
        case .trailingData: StatusCode.movieHeaderTrailingData
        case .badBoxSize: StatusCode.movieHeaderBadBoxSize
        case .tooDeep: StatusCode.movieHeaderTooDeep
        case .tooManyBoxes: StatusCode.movieHeaderTooManyBoxes
        case .duplicateBox: StatusCode.movieHeaderDuplicateBox
        case .missingBox: StatusCode.movieHeaderMissingBox
        case .badBox: StatusCode.movieHeaderBadBox
        case .noMovie: StatusCode.movieHeaderNoMovie
        case .fragmented: StatusCode.movieHeaderFragmented
        case .unsupportedTrack: StatusCode.movieHeaderUnsupportedTrack
        case .unsupportedCodec: StatusCode.movieHeaderUnsupportedCodec
        case .inconsistentTables: StatusCode.movieHeaderInconsistentTables
        }
    }
}
