@testable import C2PA
import Foundation
import Ground
import TestLiterals
import Testing

/// CBOR against cbor2 (the Python peer): items cbor2 encodes decode to the expected values here,
/// and our encoding of definite-length items is byte-identical to cbor2's.
@Suite struct CBORPeerTests {
    func cbor2(_ expr: String) throws -> [UInt8]? {
        guard Fixtures.python != nil else { print(Fixtures.skipMessage); return nil }
        let script = "import cbor2, sys\nfrom cbor2 import CBORTag\nsys.stdout.buffer.write(\(expr))\n"
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("cbor2-\(getpid())-\(abs(expr.hashValue)).py")
        try script.write(to: u, atomically: true, encoding: .utf8)
        return try Fixtures.run([u.path])
    }

    @Test func definiteItemsMatchByteForByte() throws {
        let cases: [(String, CBOR)] = [
            ("cbor2.dumps({'a': 1, 'b': [1, -2, 'x'], 'c': b'\\x00\\x01'})",
             .textMap([("a", .unsigned(1)), ("b", .array([.unsigned(1), .negative(1), .text("x")])), ("c", .bytes([0, 1]))])),
            ("cbor2.dumps(CBORTag(18, [b'\\xa1\\x01\\x26', {}, None, b'sig']))",
             .tagged(18, .array([.bytes([0xA1, 0x01, 0x26]), .map([]), .null, .bytes(Array("sig".utf8))]))),
            ("cbor2.dumps([2**64 - 1, -2**64, 24, 255, 65536, True, False])",
             .array([.unsigned(UInt64.max), .negative(UInt64.max), .unsigned(24), .unsigned(255), .unsigned(65536), .bool(true), .bool(false)])),
            ("cbor2.dumps(0.1)", .double(0.1)),
            ("cbor2.dumps('é' * 30)", .text(String(repeating: "é", count: 30))),
        ]
        for (expr, value) in cases {
            guard let b = try cbor2(expr) else { return }
            #expect(try CBOR(decoding: b) == value, "\(expr)")
            #expect(value.encoded() == b, "\(expr)")
        }
    }

    /// Floats: we write the shortest of float32/float64 that keeps the value; cbor2 reads it back.
    @Test func floatsRoundTripThroughPeer() throws {
        for (v, hexLen) in [(1.5, 5), (3.4028234663852886e+38, 5), (0.1, 9), (-1e300, 9)] {
            let ours = CBOR.double(v).encoded()
            #expect(ours.count == hexLen)
            let hex = ours.map { String(format: "%02x", $0) }.joined()
            guard let back = try cbor2("str(cbor2.loads(bytes.fromhex('\(hex)')) == \(v)).encode()") else { return }
            #expect(String(decoding: back, as: UTF8.self) == "True", "\(v)")
            guard let theirs = try cbor2("cbor2.dumps(\(v))") else { return }
            #expect(try CBOR(decoding: theirs) == .double(v))
        }
    }

    @Test func indefiniteItemsDecode() throws {
        // Indefinite array, map, byte and text strings as cbor2 streams them.
        let expr = "bytes.fromhex('9f0102ff') + b''"
        guard let b = try cbor2(expr) else { return }
        #expect(try CBOR(decoding: b) == .array([.unsigned(1), .unsigned(2)]))
        let hexes: [(String, CBOR)] = [
            ("bf616101ff", .textMap([("a", .unsigned(1))])),
            ("5f42010243030405ff", .bytes([1, 2, 3, 4, 5])),
            ("7f6161626262ff", .text("abb")),
        ]
        for (hex, value) in hexes {
            guard let b = try cbor2("cbor2.dumps(cbor2.loads(bytes.fromhex('\(hex)')))") else { return }
            // cbor2 read our indefinite bytes and re-emitted them definite; we read both the same.
            #expect(try CBOR(decoding: b) == value, "\(hex)")
            #expect(try CBOR(decoding: Array(Data(hexString: hex))) == value, "\(hex)")
        }
    }

    @Test func hostileCBORNamedErrors() throws {
        #expect(throws: CBORError.truncated(offset: 1)) { try CBOR(decoding: [0x62, 0x61]) }
        #expect(throws: CBORError.lengthTooLarge(offset: 0)) { try CBOR(decoding: [0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: CBORError.truncated(offset: 9)) { try CBOR(decoding: [0x5B, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: CBORError.trailingBytes(offset: 1)) { try CBOR(decoding: [0x01, 0x02]) }
        #expect(throws: CBORError.depthExceeded(offset: CBOR.maximumDepth + 1)) {
            try CBOR(decoding: [UInt8](repeating: 0x81, count: 200) + [0x01])
        }
        #expect(throws: CBORError.breakOutsideIndefinite(offset: 0)) { try CBOR(decoding: [0xFF]) }
        #expect(throws: CBORError.invalidUTF8(offset: 0)) { try CBOR(decoding: [0x62, 0xC3, 0x28]) }
        #expect(throws: CBORError.reservedAdditionalInfo(offset: 0)) { try CBOR(decoding: [0x1C]) }
    }
}

extension Data {
    init(hexString: String) {
        var d = Data()
        var it = hexString.makeIterator()
        while let a = it.next(), let b = it.next() { d.append(UInt8(String([a, b]), radix: 16) ?? 0) }
        self = d
    }
}
