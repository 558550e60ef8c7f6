@testable import CaptureFormat
import C2PA
import Foundation
import TestLiterals
import Testing

/// The strict bundle reader (`DisclosureBundle(strictJSON:)`) must read exactly what
/// `JSONDecoder` reads, or refuse (then `init(json:)` asks `JSONDecoder`).
@Suite struct StrictBundleJSONTests {
    static func strict(_ bytes: [UInt8]) -> DisclosureBundle? { bytes.withUnsafeBytes { DisclosureBundle(strictJSON: $0) } }
    static func foundation(_ bytes: [UInt8]) -> DisclosureBundle? { try? JSONDecoder().decode(DisclosureBundle.self, from: Data(bytes)) }

    static func bundles() throws -> [DisclosureBundle] {
        let c = try DisclosureTests.commitment()
        return try DisclosureProfile.allCases.map {
            try c.openSubset($0, claims: DisclosureTests.claims, masterSeed: DisclosureTests.seed,
                             customClaimIds: $0 == .custom ? ["time.hour", "context.weather", "location.city"] : [])
        }
    }

    @Test func writtenBundlesReadAsJSONDecoderReadsThem() throws {
        let compact = JSONEncoder()
        for b in try Self.bundles() {
            for bytes in [[UInt8](b.encodedJSON()), [UInt8](try compact.encode(b))] {
                let s = try #require(Self.strict(bytes))
                #expect(s == b)
                #expect(s == Self.foundation(bytes))
                #expect(try DisclosureBundle(json: Data(bytes)) == b)
            }
        }
    }

    /// Every one-byte change and deletion of a written bundle: whatever the strict reader accepts,
    /// `JSONDecoder` accepts with the same value.
    @Test func everyMutationIsReadAlikeOrRefused() throws {
        let b = try #require(try Self.bundles().first { $0.profile == "custom" })
        let bytes = [UInt8](b.encodedJSON())
        var acceptedChanged = 0, refused = 0
        func check(_ m: [UInt8], _ what: String) {
            guard let s = Self.strict(m) else { refused += 1; return }
            #expect(Self.foundation(m) == s, "\(what)")
            if s != b { acceptedChanged += 1 }
        }
        let replacements: [UInt8] = [0x00, 0x09, 0x20, 0x22, 0x2c, 0x2d, 0x2e, 0x30, 0x31, 0x39, 0x3a, 0x45, 0x5b, 0x5c, 0x5d,
                                     0x61, 0x65, 0x6e, 0x7b, 0x7d, 0x7f, 0xc3, 0xff]
        forEachOneByteMutation(of: bytes, replacements: replacements, check)
        // Both kinds occur, so the comparison above compared something.
        #expect(acceptedChanged > 0 && refused > 0)
    }

    @Test func outsideTheSubsetIsRefusedAndLeftToJSONDecoder() throws {
        let b = try #require(try Self.bundles().first { $0.profile == "short" })
        let text = String(decoding: try JSONEncoder().encode(b), as: UTF8.self)
        let variants = [
            text.replacingOccurrences(of: #""version":1"#, with: #""version":1.0"#),
            text.replacingOccurrences(of: #""version":1"#, with: #""version":1e0"#),
            text.replacingOccurrences(of: #""version":1"#, with: #""version":01"#),
            text.replacingOccurrences(of: #""withheldCount":"#, with: #""withheldCount":-0,"x":"#),
            text.replacingOccurrences(of: #""profile":"short""#, with: #""profile":"sh\u006frt""#),
            text.replacingOccurrences(of: #""version":1"#, with: #""version":1,"version":1"#),
            text.replacingOccurrences(of: #""version":1"#, with: #""version":1,"extra":true"#),
            text.replacingOccurrences(of: #""treeSize":"#, with: #""treeSize":99999999999999999999,"y":"#),
            "\u{FEFF}" + text,
            text + " x",
        ]
        for v in variants {
            let bytes = Array(v.utf8)
            #expect(bytes != Array(text.utf8))
            #expect(Self.strict(bytes) == nil, "\(v)")
            // init(json:) answers as JSONDecoder does, value or error text.
            let theirs = Result { try JSONDecoder().decode(DisclosureBundle.self, from: Data(bytes)) }
            do {
                let ours = try DisclosureBundle(json: Data(bytes))
                #expect((try? theirs.get()) == ours, "\(v)")
            } catch {
                guard case .failure(let f) = theirs else { Issue.record("only ours refused \(v)"); continue }
                #expect(error.detail == String(describing: f))
            }
        }
        // customClaimIds: null and absent both read as nil.
        let withNull = text.replacingOccurrences(of: #""inventoryEntries""#, with: #""customClaimIds":null,"inventoryEntries""#)
        #expect(withNull != text)
        #expect(Self.strict(Array(withNull.utf8)) == b)
        #expect(Self.strict(Array(text.utf8)) == b)
    }
}

/// `ContextClaim.canonicalEncoding` is written by hand; it must stay the deterministic CBOR of
/// the claim map at every head width of the rung and both texts.
@Suite struct CanonicalClaimEncodingTests {
    @Test func canonicalEncodingIsDeterministicCBOR() {
        let rungs: [UInt32] = [0, 1, 23, 24, 255, 256, 65_535, 65_536, .max]
        let lengths = [0, 1, 23, 24, 255, 256, 65_535, 65_536]
        var compared = 0
        for rung in rungs {
            for n in lengths {
                let claim = ContextClaim(claimId: "context." + String(repeating: "a", count: n % 300),
                                         rung: rung, value: String(repeating: "é", count: n / 2) + String(repeating: "v", count: n % 2))
                let expected = DeterministicCBOR.encode(.textMap([("claimId", .text(claim.claimId)), ("rung", .unsigned(UInt64(rung))),
                                                                  ("value", .text(claim.value))]))
                #expect(claim.canonicalEncoding == expected, "rung \(rung), length \(n)")
                compared += 1
            }
        }
        #expect(compared == rungs.count * lengths.count)
    }
}
