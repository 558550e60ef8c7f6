import Foundation
import Ground
import Testing

@Suite struct ContentIDTests {
    static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    @Test func hexRoundTripsAndIsLowercase() throws {
        let id = try #require(ContentID(hex: Self.abc))
        #expect(id.hex == Self.abc)
        #expect(id.description == Self.abc)
        #expect(ContentID(digest: id.bytes) == id)
        #expect(id.bytes.count == 32)
        #expect(id.bytes.prefix(2) == [0xba, 0x78])
    }

    @Test func strictHexRefusesUppercaseWrongLengthsAndOtherCharacters() {
        let upper = Self.abc.uppercased()
        #expect(ContentID(hex: upper) == nil)
        #expect(ContentID(hexIgnoringCase: upper)?.hex == Self.abc)
        #expect(ContentID(hex: String(Self.abc.dropLast())) == nil)
        #expect(ContentID(hex: Self.abc + "0") == nil)
        #expect(ContentID(hex: String(Self.abc.dropLast()) + "g") == nil)
        #expect(ContentID(hex: String(Self.abc.dropLast()) + "é") == nil)
        #expect(ContentID(hex: "") == nil)
        #expect(ContentID(hexIgnoringCase: String(upper.dropLast()) + "G") == nil)
        #expect(ContentID(digest: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(ContentID(digest: [UInt8](repeating: 0, count: 33)) == nil)
    }

    @Test func bytesAreReadWithoutCopyAndMatchTheWords() throws {
        let bytes = (0..<32).map { UInt8($0 * 7 + 3) }
        let id = try #require(ContentID(digest: bytes))
        id.withUnsafeBytes { raw in #expect(Array(raw) == bytes) }
        var buffer = [UInt8](repeating: 0xee, count: 40)
        buffer.withUnsafeMutableBytes { id.store(into: $0, at: 4) }
        #expect(Array(buffer[4..<36]) == bytes && buffer[0..<4].allSatisfy { $0 == 0xee })
        let key = [UInt8](repeating: 9, count: 5) + bytes
        #expect(key.withUnsafeBytes { ContentID(suffixOf: $0) } == id)
        #expect(bytes.withUnsafeBytes { ContentID($0) } == id)
        #expect(key.withUnsafeBytes { ContentID($0) } == nil)
    }

    @Test func orderIsByteOrderAndHexOrder() throws {
        var ids: [ContentID] = []
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<500 { ids.append(ContentID(digest: (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })!) }
        ids.append(ContentID(hex: "00" + String(repeating: "ff", count: 31))!)
        ids.append(ContentID(hex: "01" + String(repeating: "00", count: 31))!)
        let byBytes = ids.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        #expect(ids.sorted() == byBytes)
        #expect(ids.sorted { $0.hex < $1.hex } == byBytes)
    }

    @Test func codableIsTheHexString() throws {
        let id = try #require(ContentID(hex: Self.abc))
        let json = try JSONEncoder().encode(["id": id])
        #expect(String(decoding: json, as: UTF8.self) == #"{"id":"\#(Self.abc)"}"#)
        #expect(try JSONDecoder().decode([String: ContentID].self, from: json) == ["id": id])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([String: ContentID].self, from: Data(#"{"id":"\#(Self.abc.uppercased())"}"#.utf8))
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: ContentID].self, from: Data(#"{"id":"abc"}"#.utf8)) }
    }

    @Test func vocabularyDictionariesEncodeAsObjectsAndPrintTheirWords() throws {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let states: [SidecarSink: SidecarState] = [.secondView: .neverRecorded, .audio: .verified]
        #expect(String(decoding: try e.encode(states), as: UTF8.self) == #"{"audio":"verified","second-view":"never-recorded"}"#)
        #expect("\(SidecarSink.secondView) \(SidecarState.neverRecorded) \(FileRole.ringFrame) \(MediaKind.still)"
                == "second-view never-recorded ring-frame still")
        #expect(Integrity.allCases.map(\.rawValue) == ["intact", "tampered", "unsigned", "malformed"])
        #expect(SidecarState.allCases.map(\.rawValue) == ["verified", "mismatch", "missing", "uncommitted", "failed", "never-recorded"])
        #expect(SidecarSink.allCases.map(\.rawValue) == ["audio", "sensors", "ring", "depth", "second-view"])
        #expect(MediaKind.allCases.map(\.rawValue) == ["still", "video", "audio", "document", "unknown"]) // audio, document: issue 16
    }
}
