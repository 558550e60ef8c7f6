@testable import Crypto
import Ground
import TestLiterals
import Testing

/// `SecureRandom`: OpenSSL's DRBG behind the custody log's per-event salts.
@Suite struct SecureRandomTests {
    @Test func bytesAreFreshAndOfTheAskedLength() throws {
        let draws = try (0..<64).map { _ in try SecureRandom.bytes(16) }
        #expect(draws.allSatisfy { $0.count == 16 })
        #expect(Set(draws).count == 64)
        // 64 × 128 bits: every bit position takes both values somewhere.
        for bit in 0..<128 {
            let values = Set(draws.map { $0[bit / 8] >> (bit % 8) & 1 })
            #expect(values == [0, 1], "bit \(bit) never varies")
        }
        #expect(try SecureRandom.bytes(0) == [])
        #expect(try SecureRandom.bytes(1 << 20).count == 1 << 20)
        #expect(throws: OpenSSLError.self) { try SecureRandom.bytes(-1) }
        #expect(throws: OpenSSLError.self) { try SecureRandom.bytes((1 << 20) + 1) }
    }
}
