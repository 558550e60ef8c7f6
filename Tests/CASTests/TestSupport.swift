import CAS
import Crypto
import Foundation
import Ground
import LMDB
import TestLiterals

/// A fresh temporary directory, removed when the value is released.
final class TempDir {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "cas-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
func patternBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var x = seed | 1
    var out = [UInt8](repeating: 0, count: count)
    var i = 0
    while i < count {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17
        withUnsafeBytes(of: x) { w in
            for b in w where i < count { out[i] = b; i += 1 }
        }
    }
    return out
}

/// Writes `count` pseudo-random bytes to `path` in 1 MiB pieces.
func writePatternFile(_ path: String, count: Int, seed: UInt64) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? h.close() }
    var left = count
    var s = seed
    while left > 0 {
        let n = min(left, 1 << 20)
        h.write(Data(patternBytes(n, seed: s)))
        s &+= 0x9e3779b97f4a7c15
        left -= n
    }
}

/// `openssl dgst -sha256 -r FILE`'s hex digest.
func opensslDigest(_ path: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    p.arguments = ["dgst", "-sha256", "-r", path]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(String(decoding: data, as: UTF8.self).prefix(64))
}

/// SHA-256 of everything the store streams out for `id`.
func streamedDigest(_ store: ContentStore, _ id: ContentID) throws -> (ContentID?, Int) {
    let h = MessageDigest(.sha256)
    var n = 0
    try store.read(id) { h.update($0); n += $0.count }
    return (ContentID(digest: h.finalize()), n)
}
