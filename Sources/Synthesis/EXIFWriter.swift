import Ground

/// Writes a minimal, valid EXIF APP1 segment (TIFF little-endian, IFD0 + Exif IFD) and inserts
/// it into a JPEG after SOI and any APP0 (JFIF) segment.
public struct EXIFWriter: Sendable {
    public var make: String
    public var model: String
    public var software: String
    /// `YYYY:MM:DD HH:MM:SS` (EXIF's own format).
    public var dateTimeOriginal: String
    public var subSecTimeOriginal: String
    public var offsetTimeOriginal: String = "+00:00"
    /// Exposure time as a fraction of a second: numerator / denominator.
    public var exposureTime: (UInt32, UInt32)
    public var fNumber: (UInt32, UInt32)
    public var focalLength: (UInt32, UInt32)
    public var iso: UInt16

    public init(make: String, model: String, software: String, dateTimeOriginal: String, subSecTimeOriginal: String,
                exposureTime: (UInt32, UInt32), fNumber: (UInt32, UInt32), focalLength: (UInt32, UInt32), iso: UInt16) {
        self.make = make
        self.model = model
        self.software = software
        self.dateTimeOriginal = dateTimeOriginal
        self.subSecTimeOriginal = subSecTimeOriginal
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.focalLength = focalLength
        self.iso = iso
    }

    struct Entry {
        var tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    static func ascii(_ tag: UInt16, _ s: String) -> Entry {
        let b = Array(s.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(b.count), value: b)
    }
    static func rational(_ tag: UInt16, _ r: (UInt32, UInt32)) -> Entry {
        Entry(tag: tag, type: 5, count: 1, value: le32(r.0) + le32(r.1))
    }
    static func short(_ tag: UInt16, _ v: UInt16) -> Entry { Entry(tag: tag, type: 3, count: 1, value: le16(v) + [0, 0]) }
    static func long(_ tag: UInt16, _ v: UInt32) -> Entry { Entry(tag: tag, type: 4, count: 1, value: le32(v)) }

    /// One IFD at TIFF offset `at` (entries sorted by tag), its out-of-line values after it.
    static func ifd(_ entries: [Entry], at: Int, next: UInt32 = 0) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var head = le16(UInt16(sorted.count))
        var data: [UInt8] = []
        let dataStart = at + 2 + sorted.count * 12 + 4
        for e in sorted {
            head += le16(e.tag) + le16(e.type) + le32(e.count)
            if e.value.count <= 4 {
                head += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
            } else {
                head += le32(UInt32(dataStart + data.count))
                data += e.value
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return head + le32(next) + data
    }

    /// The TIFF structure (from the byte-order mark on).
    public func tiff() -> [UInt8] {
        let exifEntries: [Entry] = [
            EXIFWriter.rational(0x829A, exposureTime), EXIFWriter.rational(0x829D, fNumber),
            EXIFWriter.short(0x8827, iso), Entry(tag: 0x9000, type: 7, count: 4, value: Array("0232".utf8)),
            EXIFWriter.ascii(0x9003, dateTimeOriginal), EXIFWriter.ascii(0x9011, offsetTimeOriginal),
            EXIFWriter.ascii(0x9291, subSecTimeOriginal), EXIFWriter.rational(0x920A, focalLength),
        ]
        func ifd0(exifAt: UInt32) -> [UInt8] {
            EXIFWriter.ifd([EXIFWriter.ascii(0x010F, make), EXIFWriter.ascii(0x0110, model), EXIFWriter.short(0x0112, 1),
                            EXIFWriter.ascii(0x0131, software), EXIFWriter.long(0x8769, exifAt)], at: 8)
        }
        let exifAt = 8 + ifd0(exifAt: 0).count
        return [0x49, 0x49, 0x2A, 0x00] + EXIFWriter.le32(8) + ifd0(exifAt: UInt32(exifAt)) + EXIFWriter.ifd(exifEntries, at: exifAt)
    }

    /// The APP1 segment: `FF E1` ‖ length ‖ `Exif\0\0` ‖ TIFF.
    public func segment() -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff()
        let len = payload.count + 2
        return [0xFF, 0xE1, UInt8(len >> 8), UInt8(len & 0xFF)] + payload
    }

    /// `jpeg` with the APP1 segment after SOI and a leading APP0 segment, if any.
    public func insert(into jpeg: [UInt8]) throws(SynthError) -> [UInt8] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw SynthError(StatusCode.synthJpeg, "not a JPEG (no SOI)") }
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count >= 6 {
            let l = Int(jpeg[4]) << 8 | Int(jpeg[5])
            guard 2 + l <= jpeg.count - 2 else { throw SynthError(StatusCode.synthJpeg, "APP0 length overruns the file") }
            at = 2 + 2 + l
        }
        return Array(jpeg[..<at]) + segment() + Array(jpeg[at...])
    }
}
