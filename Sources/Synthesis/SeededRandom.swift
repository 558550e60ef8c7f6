import Crypto

/// A deterministic pseudo-random stream: SplitMix64 seeded from SHA-256(`"exhibit-synth"` ‖
/// seed BE ‖ stream label). Each named stream is independent of every other, so adding a draw
/// to one capture never shifts another capture's values (docs/capture-synth.md, determinism).
public struct SeededRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64, stream: String) {
        var input = Array("exhibit-synth".utf8)
        for i in (0..<8).reversed() { input.append(UInt8(truncatingIfNeeded: seed >> (UInt64(i) * 8))) }
        input += Array(stream.utf8)
        let d = MessageDigest.sha256(input)
        state = d.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in `range`.
    public mutating func double(in range: Range<Double>) -> Double { range.lowerBound + unit() * (range.upperBound - range.lowerBound) }

    /// Uniform integer in `range` (modulo bias is irrelevant at these sizes).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    public mutating func bytes(_ n: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(n + 8)
        while out.count < n {
            let v = next()
            for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (UInt64(i) * 8))) }
        }
        return Array(out.prefix(n))
    }

    /// A version-4-shaped UUID, lowercase 8-4-4-4-12.
    public mutating func uuid() -> String {
        var b = bytes(16)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        let h = Hex.encode(b)
        let c = Array(h)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }
}
