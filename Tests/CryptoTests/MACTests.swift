import Foundation
import Testing
@testable import Crypto

/// HMAC-SHA256 and MD5 against the `openssl dgst` command line (an independent peer) and the
/// RFC vectors.
@Suite struct MACTests {
    /// Messages of the lengths that matter: empty, one byte, a block ± 1, a large random one.
    static let messages: [[UInt8]] = [[], [0x61], Array(repeating: 0x5a, count: 63), Array(repeating: 0x5a, count: 64),
                                      Array(repeating: 0x5a, count: 65), (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }]

    @Test func hmacSHA256MatchesOpenSSLCLI() throws {
        for (i, message) in Self.messages.enumerated() {
            let key = "key-\(i)-\(String(repeating: "k", count: i * 13))"   // up to 65+ bytes: longer than a block
            let out = try OpenSSLCLI.run(["dgst", "-sha256", "-hmac", key, "-r"], input: message)
            let expected = String(String(decoding: out, as: UTF8.self).prefix(64))
            #expect(Hex.encode(HMAC.sha256(key: Array(key.utf8), message)) == expected, "message \(i)")
        }
    }

    @Test func hmacSHA256RFC4231Case2() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        #expect(Hex.encode(HMAC.sha256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // An empty key and message.
        #expect(Hex.encode(HMAC.sha256(key: [UInt8](), [UInt8]()))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func md5MatchesOpenSSLCLI() throws {
        for (i, message) in Self.messages.enumerated() {
            let out = try OpenSSLCLI.run(["dgst", "-md5", "-r"], input: message)
            let expected = String(String(decoding: out, as: UTF8.self).prefix(32))
            #expect(Hex.encode(MD5.digest(message)) == expected, "message \(i)")
            // Streaming in uneven pieces gives the same digest, and the hasher resets.
            let h = MD5()
            var offset = 0
            while offset < message.count {
                let n = min(7_919, message.count - offset)
                h.update(Array(message[offset..<offset + n]))
                offset += n
            }
            #expect(Hex.encode(h.finalize()) == expected)
            #expect(Hex.encode(h.finalize()) == "d41d8cd98f00b204e9800998ecf8427e")
        }
    }
}
