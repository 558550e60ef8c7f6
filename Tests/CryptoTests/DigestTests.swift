@testable import Crypto
import Ground
import TestLiterals
import Testing

@Suite struct DigestTests {
    @Test func sha256KnownVectors() {
        #expect(Hex.encode(MessageDigest.sha256([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Hex.encode(MessageDigest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let h = MessageDigest(.sha256)
        for chunk in ["abcdbcdecdefdefgefghfghighij", "hijkijkljklmklmnlmnomnopnopq"] { h.update(Array(chunk.utf8)) }
        #expect(Hex.encode(h.finalize()) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Hex.encode(MessageDigest.digest(Array("abc".utf8), .sha384)).hasPrefix("cb00753f45a35e8bb5a03d699ac65007"))
    }

    @Test func hkdfRFC5869TestCase1() throws {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        let salt = Hex.decode("000102030405060708090a0b0c")!
        let info = Hex.decode("f0f1f2f3f4f5f6f7f8f9")!
        let okm = try HKDF.sha256(key: ikm, salt: salt, info: info, length: 42)
        #expect(Hex.encode(okm) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }
}
