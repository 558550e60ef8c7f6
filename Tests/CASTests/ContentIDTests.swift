import CAS
import Ground
import TestLiterals
import Testing

@Suite struct ContentIDTests {
    @Test func emptyInputIsTheKnownSHA256() {
        #expect(ContentID(of: [UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentID(of: Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// What a person types (`get`, `stat`): either case; the formats take lowercase only (GroundTests).
    @Test func hexParsingIsLengthCheckedAndPrintsLowercase() throws {
        let upper = "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"
        let id = try #require(ContentID(hexIgnoringCase: upper))
        #expect(id.hex == upper.lowercased())
        #expect(ContentID(hexIgnoringCase: String(upper.dropLast())) == nil)
        #expect(ContentID(hexIgnoringCase: upper + "00") == nil)
        #expect(ContentID(hexIgnoringCase: String(upper.dropLast()) + "g") == nil)
        #expect(ContentID(digest: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(id.bytes.count == 32)
        #expect(ContentID(digest: id.bytes) == id)
    }

    @Test func orderIsByteOrder() throws {
        let a = try #require(ContentID(hex: "00" + String(repeating: "ff", count: 31)))
        let b = try #require(ContentID(hex: "01" + String(repeating: "00", count: 31)))
        let c = try #require(ContentID(hex: "01" + String(repeating: "00", count: 30) + "01"))
        #expect(a < b && b < c)
        #expect([c, a, b].sorted() == [a, b, c])
    }
}
