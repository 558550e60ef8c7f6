import C2PA
import Ground
import Testing
@testable import Verify

/// The claim box label, read as c2pa-rs reads it (docs/c2pa.md `claim.labelUnrecognized`), on a
/// writer-made JPEG and MP4: the regression bytes of the store-flip class "claim label flip"
/// (one bit of `p` in `c2pa.claim.v2`, the flip c2pa-rs reads as Trusted on its own HEIC, HEIF,
/// AVIF and M4A files), and the one flip of the label that names a version c2pa-rs refuses.
@Suite struct C2PAClaimLabelTests {
    static let label = Array("c2pa.claim.v2".utf8) + [0]

    func signed(_ kind: String) throws -> [UInt8] {
        let t = C2PAValidatorTests()
        return kind == "mp4" ? try t.builder(timestamp: false).signMP4(try t.media("mp4"))
                             : try t.builder(timestamp: false).sign(try t.media("jpg"), format: .jpeg)
    }

    /// `file` with the label's byte at `at` XORed with 0x01.
    func flipped(_ file: [UInt8], labelByte at: Int) throws -> [UInt8] {
        let i = try #require(C2PAFormatAgreementTests.index(of: Self.label, in: file))
        #expect(C2PAFormatAgreementTests.index(of: Self.label, in: Array(file[(i + 1)...])) == nil, "one claim label")
        return C2PAFormatAgreementTests.flip(file, at: i + at)
    }

    @Test(arguments: ["jpg", "mp4"]) func flippedBaseLabelStaysIntactAndIsNamed(kind: String) throws {
        let v = try C2PAValidatorTests().validator()
        let file = try signed(kind)
        let r = v.validate(source: MemoryByteSource(try flipped(file, labelByte: 3))) // c2qa.claim.v2
        #expect(r.integrity == .intact && r.trust == .trusted, "\(kind): \(r.integrity) \(r.failureCodes)")
        #expect(r.claimVersion == 2)
        #expect(r.informational.map(\.code).contains(C2PAValidator.claimLabelUnrecognized))
        // The unflipped file names nothing.
        #expect(!v.validate(source: MemoryByteSource(file)).codes.contains(C2PAValidator.claimLabelUnrecognized))
    }

    /// `c2pa.claim.v3`: above the supported version, c2pa-rs `ClaimVersionTooNew` (its Reader fails).
    @Test(arguments: ["jpg", "mp4"]) func labelNamingVersion3IsMalformed(kind: String) throws {
        let v = try C2PAValidatorTests().validator()
        let r = v.validate(source: MemoryByteSource(try flipped(try signed(kind), labelByte: 12))) // '2' ^ 1 = '3'
        #expect(r.integrity == .malformed, "\(kind): \(r.integrity)")
        #expect(r.failure.contains { $0.code == StatusCode.claimMalformed && $0.explanation == StatusCode.claimUnknownLabel })
    }
}
