import Foundation

/// Writes the audio master: Apple CAF, 16 kHz mono 16-bit signed little-endian LPCM
/// (docs/capture-format.md §5.2) — `caff` v1 header, `desc`, `data` (edit count 0, samples).
public enum CAFWriter {
    public static let sampleRate = 16_000

    public static func file(samples: [Int16]) -> [UInt8] {
        var out = Array("caff".utf8) + [0, 1, 0, 0]
        out += Array("desc".utf8) + be64(32)
        out += be64(Double(sampleRate).bitPattern)
        out += Array("lpcm".utf8)
        out += be32(2) + be32(2) + be32(1) + be32(1) + be32(16)
        let dataSize = UInt64(4 + samples.count * 2)
        out += Array("data".utf8) + be64(dataSize) + be32(0)
        out.reserveCapacity(out.count + samples.count * 2)
        for s in samples {
            let u = UInt16(bitPattern: s)
            out.append(UInt8(u & 0xFF))
            out.append(UInt8(u >> 8))
        }
        return out
    }

    /// Deterministic audio: two seeded tones (room hum and a voice-band tone) plus seeded noise.
    public static func samples(seconds: Double, random: inout SeededRandom) -> [Int16] {
        let n = Int(seconds * Double(sampleRate))
        let f1 = random.double(in: 90..<130), f2 = random.double(in: 300..<900)
        let a1 = random.double(in: 1500..<4000), a2 = random.double(in: 800..<3000)
        var out = [Int16](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i) / Double(sampleRate)
            let v = a1 * sin(2 * .pi * f1 * t) + a2 * sin(2 * .pi * f2 * t) + random.double(in: -400..<400)
            out[i] = Int16(max(-32768, min(32767, v.rounded())))
        }
        return out
    }

    static func be32(_ v: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    static func be64(_ v: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
}
