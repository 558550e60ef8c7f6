import Ground
import Testing

/// The reversible text form of file names that are not valid UTF-8 (docs/design.md).
@Suite struct PathTextTests {
    @Test func validUTF8WithoutEscapesIsItself() {
        for name in ["IMG_0001.jpg", "a\\b", "café", "日本.caf", "new\nline", "\\", "x"] {
            #expect(PathText.encode(Array(name.utf8)) == name)
        }
    }

    @Test func invalidBytesAreHexEscapedAndBackslashesBeforeEscapesDoubled() {
        #expect(PathText.encode([0x63, 0x61, 0x66, 0xe9]) == "caf\\xe9")
        #expect(PathText.encode(Array("caf\\xe9".utf8)) == "caf\\\\xe9")
        #expect(PathText.encode([0x5c, 0xff]) == "\\\\\\xff")
        #expect(PathText.encode([0x5c, 0x5c]) == "\\\\\\")
        #expect(PathText.encode([0xed, 0xa0, 0x80]) == "\\xed\\xa0\\x80")  // a UTF-16 surrogate is not UTF-8
        #expect(PathText.encode([0xc0, 0xaf]) == "\\xc0\\xaf")              // overlong
    }

    @Test func decodeInvertsEncodeForEveryByteString() {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x5c, 0x78, 0x41, 0x66, 0x30, 0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xff, 0x80, 0xed, 0xa0, 0x2e]
        for _ in 0..<20_000 {
            let n = Int.random(in: 1...12, using: &rng)
            let bytes = (0..<n).map { _ in alphabet.randomElement(using: &rng)! }
            #expect(PathText.decode(PathText.encode(bytes)) == bytes, "\(bytes)")
        }
        for b in 0...255 {
            let bytes = [UInt8(b), 0x5c, UInt8(b)]
            #expect(PathText.decode(PathText.encode(bytes)) == bytes)
        }
    }

    @Test func namesAndRelativePaths() throws {
        let latin = try #require(FileName(bytes: [0x63, 0x61, 0x66, 0xe9]))
        #expect(!latin.isValidUTF8 && latin.text == "caf\\xe9" && FileName(text: latin.text) == latin)
        #expect(FileName(bytes: []) == nil && FileName(bytes: [0x61, 0x2f]) == nil && FileName(bytes: [0x61, 0]) == nil)
        // NFC and NFD stay two names (String would call them equal).
        let nfc = try #require(FileName("\u{e9}")), nfd = try #require(FileName("e\u{301}"))
        #expect(nfc != nfd && Set([nfc, nfd]).count == 2)
        let p = try #require(RelativePath(text: "evidence/ring/caf\\xe9"))
        #expect(p.components.count == 3 && p.name == latin && p.text == "evidence/ring/caf\\xe9")
        #expect(RelativePath(text: "a/../b") == nil && RelativePath(text: "/a") == nil && RelativePath(text: "a//b") == nil)
        #expect(RelativePath(text: "evidence/a") ?? p < p)
    }
}
