import CAV
import Foundation
import Ground
@testable import Media
import Testing
@testable import TurboJPEG

/// Session 9: a JPEG still's thumbnail is encoded by libjpeg-turbo (`tjCompressFromYUVPlanes`,
/// quality `StillThumbnailEncoder.quality`) instead of libavcodec's `mjpeg` at qscale 5. Same
/// size, visibly the same picture (pixel statistics against a libavcodec-made thumbnail of the
/// same planes), decodable by `djpeg` and by libavcodec, and as close to the decoded still.
@Suite(.serialized) struct StillThumbnailEncoderTests {
    /// Luma of a JPEG at its full size (libjpeg-turbo, 1/1).
    func luma(_ jpeg: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let p = try jpeg.withUnsafeBytes { raw throws(TurboJPEGError) in
            let d = try JPEGDecompressor()
            let i = try d.info(raw)
            return try d.planes(raw, atLeast: (i.width, i.height), maxPixels: 1 << 24)
        }
        return (p.width, p.height, p.planes[0])
    }

    func meanAbsDiff(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let mse = Double(zip(a, b).reduce(0) { $0 + (Int($1.0) - Int($1.1)) * (Int($1.0) - Int($1.1)) }) / Double(a.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The thumbnail libavcodec's `mjpeg` (qscale 5) made from the same planes before session 9.
    func libavThumbnail(_ p: JPEGPlanes) throws -> [UInt8] {
        let (w, h) = Thumbnail.size(width: p.sourceWidth, height: p.sourceHeight, maxWidth: Thumbnail.maxWidth)
        return try JPEGEncoder.encode(try Scaler.scale(try Frame(planes: p), width: w, height: h, format: AV_PIX_FMT_YUVJ420P), qscale: 5)
    }

    func deliveryPlanes() throws -> [(id: String, planes: JPEGPlanes)] {
        let (dir, expected) = try SynthDumpTests.dump.get()
        let stills = expected.captures.filter { $0.kind == "still" && $0.faults.isEmpty }
        #expect(stills.count >= 2)
        return try stills.map { c in
            let bytes = try MediaFixtures.bytes(dir + "/" + c.deliveryFile)
            return (c.id, try #require(try StillPicture.decodeDelivery(bytes)))
        } + [("ffmpeg-bars", try #require(try StillPicture.decodeDelivery(try MediaFixtures.bytes(try MediaFixtures.jpeg()))))]
    }

    /// Same size; against the libavcodec thumbnail of the same planes, luma within 1.5 levels on
    /// average and ≥ 35 dB; against the decoded still (the planes), no more than 0.5 dB worse than
    /// libavcodec's; and at most 1.6× its bytes (libjpeg-turbo's standard Huffman tables and
    /// plain rounding against libavcodec's optimal tables and dead zone: ~1.3× on synth stills,
    /// ~1.55× on ffmpeg's colour bars).
    @Test func sameSizeAndPictureAsTheLibAVThumbnail() throws {
        for (id, p) in try deliveryPlanes() {
            let turbo = try Thumbnail.make(planes: p, maxWidth: Thumbnail.maxWidth)
            let libav = try libavThumbnail(p)
            let a = try luma(turbo.jpeg), b = try luma(libav)
            #expect((a.width, a.height) == (b.width, b.height) && (a.width, a.height) == (turbo.width, turbo.height), "\(id)")
            #expect(turbo.tool == "libjpeg-turbo 2.1.5 tjCompressFromYUVPlanes q=\(StillThumbnailEncoder.quality)")
            let diff = meanAbsDiff(a.pixels, b.pixels), between = psnr(a.pixels, b.pixels)
            #expect(diff < 1.5 && between >= 35, "\(id): mean |Δ| \(diff), PSNR \(between) dB")
            var notes = "\(id): \(turbo.width)x\(turbo.height) mean |Δ| \(diff), PSNR turbo/libav \(between) dB"
            if p.subsampling == .s420, (p.width, p.height) == (turbo.width, turbo.height) {
                let toSourceTurbo = psnr(a.pixels, p.planes[0]), toSourceLibAV = psnr(b.pixels, p.planes[0])
                #expect(toSourceTurbo >= toSourceLibAV - 0.5, "\(id): \(toSourceTurbo) vs \(toSourceLibAV) dB")
                notes += ", to the planes \(toSourceTurbo) / \(toSourceLibAV) dB"
            }
            #expect(Double(turbo.jpeg.count) <= 1.6 * Double(libav.count), "\(id): \(turbo.jpeg.count) vs \(libav.count) bytes")
            print(notes + ", bytes \(turbo.jpeg.count) / \(libav.count)")
        }
    }

    /// Planes that are already the thumbnail are encoded as they are; through libswscale (same
    /// size, same format: a copy) they give the very same bytes.
    @Test func unscaledPlanesEqualTheScaledPath() throws {
        let all = try deliveryPlanes()
        #expect(all.contains { $0.planes.subsampling == .s420 && $0.planes.width == 320 && $0.planes.height == 240 })
        for (id, p) in all {
            let direct = try Thumbnail.make(planes: p, maxWidth: Thumbnail.maxWidth)
            let scaled = try Thumbnail.make(planes: p, maxWidth: Thumbnail.maxWidth, scaled: true)
            #expect(direct == scaled, "\(id)")
        }
    }

    /// `djpeg` (libjpeg-turbo-progs, another program) decodes it to the stated size, and its
    /// luma is the thumbnail's.
    @Test func djpegDecodesTheThumbnail() throws {
        for (id, p) in try deliveryPlanes() {
            let t = try Thumbnail.make(planes: p, maxWidth: Thumbnail.maxWidth)
            let pgm = try Self.djpeg(t.jpeg)
            let header = "P5\n\(t.width) \(t.height)\n255\n"
            #expect(pgm.count == header.utf8.count + t.width * t.height, "\(id)")
            #expect(Array(pgm.prefix(header.utf8.count)) == Array(header.utf8), "\(id)")
            let gray = Array(pgm.dropFirst(header.utf8.count))
            #expect(meanAbsDiff(gray, try luma(t.jpeg).pixels) < 0.5, "\(id)")
        }
    }

    /// The encoder checks what it is handed: planes too small, a quality outside 1…100.
    @Test func encoderRefusesBadInput() throws {
        let c = try JPEGCompressor()
        let ok = JPEGPlanes(width: 16, height: 16, sourceWidth: 16, sourceHeight: 16, scale: (1, 1), subsampling: .s420,
                            planes: [[UInt8](repeating: 128, count: 256), [UInt8](repeating: 128, count: 64), [UInt8](repeating: 128, count: 64)],
                            widths: [16, 8, 8], heights: [16, 8, 8])
        #expect(try c.compress(ok, quality: 70).prefix(2) == [0xFF, 0xD8])
        var short = ok
        short.planes[2] = [UInt8](repeating: 128, count: 63)
        #expect(throws: TurboJPEGError.self) { try c.compress(short, quality: 70) }
        do throws(TurboJPEGError) { _ = try c.compress(short, quality: 70) } catch { #expect(error.code == StatusCode.turboJPEGEncodeFailed) }
        #expect(throws: TurboJPEGError.self) { try c.compress(ok, quality: 0) }
        #expect(throws: TurboJPEGError.self) { try c.compress(ok, quality: 101) }
        var missing = ok
        missing.planes.removeLast()
        #expect(throws: TurboJPEGError.self) { try c.compress(missing, quality: 70) }
    }

    /// Runs `/usr/bin/djpeg -grayscale -pnm` on `jpeg` through pipes (no file left anywhere).
    static func djpeg(_ jpeg: [UInt8]) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/djpeg")
        p.arguments = ["-grayscale", "-pnm"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try p.run()
        try input.fileHandleForWriting.write(contentsOf: Data(jpeg))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return [UInt8](out)
    }
}
