import Foundation
import Ground
import ProcessSupport

/// A fresh temporary directory, removed when the value is released.
public final class ScratchDirectory {
    public let path: String
    public init(_ label: String = "blob-contract") {
        path = NSTemporaryDirectory() + label + "-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    public func file(_ name: String) -> String { path + "/" + name }
}

/// Deterministic pseudo-random bytes (xorshift64, seeded), so failures reproduce.
public func pattern(_ count: Int, seed: UInt64) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    var generator = PatternGenerator(seed: seed)
    out.withUnsafeMutableBytes { generator.fill($0) }
    return out
}

/// Writes the same bytes as `pattern(count, seed:)` to `path`, 1 MiB at a time.
public func writePattern(_ path: String, count: Int, seed: UInt64) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    var generator = PatternGenerator(seed: seed)
    var piece = [UInt8](repeating: 0, count: 1 << 20)
    var remaining = count
    while remaining > 0 {
        let n = min(remaining, piece.count)
        piece.withUnsafeMutableBytes { generator.fill(UnsafeMutableRawBufferPointer(rebasing: $0[..<n])) }
        try handle.write(contentsOf: piece[0..<n])
        remaining -= n
    }
}

/// xorshift64 as a byte stream: eight bytes per step, little-endian, carried across calls.
struct PatternGenerator {
    var x: UInt64
    var word: UInt64 = 0
    var left = 0
    init(seed: UInt64) { x = seed | 1 }
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count {
            if left == 0 {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                word = x
                left = 8
            }
            buffer[i] = UInt8(truncatingIfNeeded: word)
            word >>= 8
            left -= 1
        }
    }
}

/// `openssl dgst -sha256` of a file: the independent hasher the contract compares IDs with.
public func opensslSHA256(_ path: String) -> String {
    String(Run.capture(["openssl", "dgst", "-sha256", "-r", path]).stdout.prefix(64))
}
