import Ground

extension MovieHeader {
    /// `stsd` (FullBox): entry_count = 1, then one sample entry:
    ///
    ///     entry  = size:u32 format:4cc reserved[6] data_reference_index:u16 fields child-box*
    ///     visual = pre_defined/reserved[16] width:u16 height:u16 … (70 bytes of fields)
    ///     audio  = version:u16 revision:u16 vendor:u32 channelcount:u16 samplesize:u16
    ///              compression_id:u16 packet_size:u16 samplerate:u32 (16.16)   (version 0: 20 bytes)
    ///     esds   = version/flags ES_Descriptor(0x03){ ES_ID:u16 flags:u8 …
    ///              DecoderConfigDescriptor(0x04){ objectTypeIndication:u8 streamType:u8
    ///              bufferSizeDB:u24 maxBitrate:u32 avgBitrate:u32 DecoderSpecificInfo(0x05){…} } }
    static func sampleEntry(in tables: [MovieBoxes.Box], video: Bool, _ r: inout MovieBoxes) throws(MovieHeaderError) -> Track.Media {
        guard let stsd = try MovieBoxes.single(MovieBoxes.fourCC("stsd"), in: tables) else { throw .missingBox("stsd") }
        guard stsd.body.count >= 8, try r.u32(stsd.body.lowerBound + 4) == 1 else { throw .unsupportedCodec("stsd entries") }
        let entries = try r.boxes(in: (stsd.body.lowerBound + 8)..<stsd.body.upperBound, depth: 6)
        guard entries.count == 1, let entry = entries.first else { throw .badBox("stsd") }
        let b = entry.body.lowerBound
        let format = entry.type
        if video {
            let codec: String
            switch format {
            case MovieBoxes.fourCC("avc1"), MovieBoxes.fourCC("avc3"): codec = "h264"
            case MovieBoxes.fourCC("hvc1"), MovieBoxes.fourCC("hev1"): codec = "hevc"
            default: throw .unsupportedCodec(MovieBoxes.name(format))
            }
            guard entry.body.count >= 78 else { throw .badBox(MovieBoxes.name(format)) }
            let width = Int(try r.u16(b + 24)), height = Int(try r.u16(b + 26))
            // A size of 0 makes libavformat probe by decoding: left to it.
            guard width > 0, height > 0 else { throw .badBox(MovieBoxes.name(format)) }
            _ = try r.boxes(in: (b + 78)..<entry.body.upperBound, depth: 7)
            return .video(codec: codec, width: width, height: height)
        }
        guard format == MovieBoxes.fourCC("mp4a") else { throw .unsupportedCodec(MovieBoxes.name(format)) }
        // QuickTime sound description versions 1 and 2 move the child boxes and restate the
        // fields: left to libavformat.
        guard entry.body.count >= 28, try r.u16(b + 8) == 0 else { throw .unsupportedCodec("mp4a version") }
        let bits = Int(try r.u16(b + 18))
        let children = try r.boxes(in: (b + 28)..<entry.body.upperBound, depth: 7)
        guard let esds = try MovieBoxes.single(MovieBoxes.fourCC("esds"), in: children) else { throw .missingBox("esds") }
        let config = try Self.decoderConfig(esds, r)
        return .audio(codec: "aac", channels: config.channels, sampleRate: config.sampleRate, bitsPerSample: bits,
                      averageBitRate: config.averageBitRate)
    }

    /// The elementary stream descriptor of an `mp4a` entry: MPEG-4 AAC (objectTypeIndication
    /// 0x40) and its AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1), read as libavcodec's
    /// `ff_mpeg4audio_get_config_gb` reads it with `sync_extension` (FFmpeg 5.1):
    ///
    ///     audioObjectType:5 (1–4: AAC main, LC, SSR, LTP) samplingFrequencyIndex:4 [rate:24 if 15]
    ///     channelConfiguration:4 (1–7) …, then a backward-compatible sync extension found by a
    ///     bit-by-bit search: 0x2b7:11 extensionAudioObjectType:5 [sbrPresentFlag:1 [rate index]]
    ///
    /// A present SBR flag makes the extension's rate the stream's, as in libavformat. Explicit
    /// SBR/PS object types, escape object types and other codecs are left to libavformat.
    static func decoderConfig(_ esds: MovieBoxes.Box, _ r: MovieBoxes) throws(MovieHeaderError)
        -> (channels: Int, sampleRate: Int, averageBitRate: UInt32) {
        var at = esds.body.lowerBound + 4
        let end = esds.body.upperBound
        /// A descriptor's tag and the end of its body (the length is 1–4 bytes of 7 bits).
        func descriptor(_ tag: UInt8) throws(MovieHeaderError) -> Int {
            guard at < end, try r.u8(at) == tag else { throw .badBox("esds") }
            at += 1
            var length = 0
            for i in 0..<4 {
                guard at < end else { throw .badBox("esds") }
                let b = try r.u8(at)
                at += 1
                length = length << 7 | Int(b & 0x7F)
                if b & 0x80 == 0 { break }
                if i == 3 { throw .badBox("esds") }
            }
            guard length <= end - at else { throw .badBox("esds") }
            return at + length
        }
        let esEnd = try descriptor(0x03)
        guard esEnd - at >= 3 else { throw .badBox("esds") }
        let flags = try r.u8(at + 2)
        at += 3
        if flags & 0x80 != 0 { at += 2 }
        if flags & 0x40 != 0 { at += 1 + Int(try r.u8(at)) }
        if flags & 0x20 != 0 { at += 2 }
        guard at < esEnd else { throw .badBox("esds") }
        let configEnd = try descriptor(0x04)
        guard configEnd <= esEnd, configEnd - at >= 13 else { throw .badBox("esds") }
        guard try r.u8(at) == 0x40 else { throw .unsupportedCodec("esds object type") }
        let averageBitRate = try r.u32(at + 9)
        at += 13
        let infoEnd = try descriptor(0x05)
        guard infoEnd <= configEnd, (2...64).contains(infoEnd - at) else { throw .unsupportedCodec("AudioSpecificConfig") }
        var bits = AudioConfigBits(bytes: try r.bytes(at..<infoEnd))
        let objectType = bits.read(5)
        var rate = bits.sampleRate()
        let channelConfiguration = bits.read(4)
        let channels = [0, 1, 2, 3, 4, 5, 6, 8]
        guard (1...4).contains(objectType), rate > 0, (1...7).contains(channelConfiguration) else {
            throw .unsupportedCodec("AudioSpecificConfig")
        }
        while bits.left > 15 {
            guard bits.peek(11) == 0x2B7 else { _ = bits.read(1); continue }
            _ = bits.read(11)
            let extensionType = bits.read(5)
            guard extensionType != 31 else { throw .unsupportedCodec("AudioSpecificConfig") }
            if extensionType == 5, bits.read(1) == 1 {
                rate = bits.sampleRate()
                guard rate > 0 else { throw .unsupportedCodec("AudioSpecificConfig") }
            }
            break
        }
        return (channels[channelConfiguration], rate, averageBitRate)
    }

    /// The sample tables, checked to agree: `stts` (time-to-sample), `stsz` (sizes; `stz2` is
    /// left to libavformat), `stsc` (samples per chunk, one sample description), `stco`/`co64`
    /// (chunk offsets: only counted), `ctts` (composition offsets: none negative).
    static func sampleTable(_ tables: [MovieBoxes.Box], _ r: MovieBoxes) throws(MovieHeaderError) -> SampleTable {
        func fullBox(_ name: StaticString, entrySize: Int, header: Int = 8) throws(MovieHeaderError) -> (Int, Int)? {
            guard let box = try MovieBoxes.single(MovieBoxes.fourCC(name), in: tables) else { return nil }
            let b = box.body.lowerBound
            guard box.body.count >= header, try r.u8(b) == 0 || "\(name)" == "ctts" else { throw .badBox("\(name)") }
            let count = Int(try r.u32(b + header - 4))
            guard entrySize == 0 || count <= (box.body.count - header) / entrySize else { throw .badBox("\(name)") }
            return (b + header, count)
        }
        if try MovieBoxes.single(MovieBoxes.fourCC("stz2"), in: tables) != nil { throw .unsupportedCodec("stz2") }
        guard let (stts, timeEntries) = try fullBox("stts", entrySize: 8) else { throw .missingBox("stts") }
        var samples: UInt64 = 0, duration: UInt64 = 0, firstDelta: UInt32 = 0
        for i in 0..<timeEntries {
            let count = UInt64(try r.u32(stts + 8 * i)), delta = try r.u32(stts + 8 * i + 4)
            // libavformat takes a delta above 2³¹ for a negative one.
            guard delta <= UInt32(Int32.max) else { throw .inconsistentTables("stts delta") }
            if i == 0 { firstDelta = delta }
            samples += count
            duration += count * UInt64(delta)
            guard samples <= maximumSamples else { throw .inconsistentTables("stts samples") }
        }
        // stsz: version/flags, sample_size, sample_count, then the sizes when sample_size is 0.
        guard let (stszFields, sampleCountField) = try fullBox("stsz", entrySize: 0, header: 12) else { throw .missingBox("stsz") }
        let constant = try r.u32(stszFields - 8)
        let sampleCount = UInt64(sampleCountField)
        guard sampleCount > 0, sampleCount == samples else { throw .inconsistentTables("stsz count") }
        var bytes: UInt64 = 0
        if constant != 0 {
            guard constant <= 0x3FFF_FFFF else { throw .inconsistentTables("stsz size") }
            bytes = UInt64(constant) * sampleCount
        } else {
            let stsz = try MovieBoxes.single(MovieBoxes.fourCC("stsz"), in: tables)
            guard let stsz, UInt64(stsz.body.count - 12) / 4 >= sampleCount else { throw .badBox("stsz") }
            for i in 0..<Int(sampleCount) {
                let size = try r.u32(stszFields + 4 * i)
                guard size <= 0x3FFF_FFFF else { throw .inconsistentTables("stsz size") }
                bytes += UInt64(size)
            }
        }
        let chunks: Int
        if let (_, n) = try fullBox("stco", entrySize: 4) {
            guard try MovieBoxes.single(MovieBoxes.fourCC("co64"), in: tables) == nil else { throw .duplicateBox("co64") }
            chunks = n
        } else if let (co64, n) = try fullBox("co64", entrySize: 8) {
            // libavformat stops indexing (and states no bit rate) at an offset near 2⁶³.
            for i in 0..<n where try r.u64(co64 + 8 * i) > 1 << 62 { throw .inconsistentTables("co64 offset") }
            chunks = n
        } else { throw .missingBox("stco") }
        guard let (stsc, mappings) = try fullBox("stsc", entrySize: 12), mappings > 0 else { throw .missingBox("stsc") }
        var chunked: UInt64 = 0
        for i in 0..<mappings {
            let first = Int(try r.u32(stsc + 12 * i)), perChunk = UInt64(try r.u32(stsc + 12 * i + 4))
            let description = try r.u32(stsc + 12 * i + 8)
            let next = i + 1 < mappings ? Int(try r.u32(stsc + 12 * (i + 1))) : chunks + 1
            guard first >= 1, next > first, next <= chunks + 1, perChunk > 0, description == 1,
                  i > 0 || first == 1 else { throw .inconsistentTables("stsc") }
            chunked += UInt64(next - first) * perChunk
            guard chunked <= maximumSamples else { throw .inconsistentTables("stsc") }
        }
        guard chunked == sampleCount else { throw .inconsistentTables("stsc samples") }
        if let (ctts, offsets) = try fullBox("ctts", entrySize: 8) {
            for i in 0..<offsets where Int32(bitPattern: try r.u32(ctts + 8 * i + 4)) < 0 {
                throw .inconsistentTables("ctts negative")
            }
        }
        return SampleTable(samples: samples, duration: duration, timeEntries: timeEntries, firstDelta: firstDelta, bytes: bytes)
    }
}

/// Big-endian bit reads over an AudioSpecificConfig; reads past the end give zeros (libavcodec's
/// `get_bits` on a padded buffer), which only the bounded search above could reach.
struct AudioConfigBits {
    let bytes: [UInt8]
    var position = 0

    var left: Int { bytes.count * 8 - position }

    func peek(_ n: Int) -> Int {
        var v = 0
        for i in 0..<n {
            let p = position + i
            let bit = p < bytes.count * 8 ? Int(bytes[p >> 3] >> (7 - UInt8(p & 7)) & 1) : 0
            v = v << 1 | bit
        }
        return v
    }

    mutating func read(_ n: Int) -> Int {
        defer { position += n }
        return peek(n)
    }

    /// samplingFrequencyIndex and, for index 15, the explicit 24-bit rate; 0 for the reserved
    /// indices 13 and 14 (libavcodec's table).
    mutating func sampleRate() -> Int {
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350, 0, 0]
        let index = read(4)
        return index == 15 ? read(24) : rates[index]
    }
}
