import C2PA
import Crypto
import Foundation
import Testing
@testable import Verify

/// The malleability sweep of C2PAMalleabilityTests run on a writer-made PNG and WAV: every byte
/// of the carrier (PNG: the `caBX` chunk, length to CRC; WAV: the `C2PA` chunk, header, store and
/// pad byte) flipped one at a time. Pinned both ways: the set that stays `intact` is exactly the
/// documented one — the COSE pad's bytes (and in a PNG the chunk's CRC-32), which c2pa-rs does not
/// read either: there the flip is `intact` with an informational `cose.padNotZero` /
/// `container.crcMismatch` — no flip leaves the report unchanged, and no flip crashes.
@Suite struct C2PAFormatMalleabilityTests {
    func signed(_ f: ContainerFormat) throws -> (file: [UInt8], region: Range<Int>) {
        let t = C2PAValidatorTests()
        let file = try t.builder(timestamp: false).sign(try FormatMedia.unsigned(f), format: f)
        guard case .found(let loc) = try AssetContainer.read(MemoryByteSource(file)).lookup, let span = loc.span else {
            throw FormatMedia.Missing(file: #fileID, line: #line)
        }
        // RIFF: the pad byte after an odd-length store belongs to the chunk (hashed, not excluded).
        let pad = f == .wav && (span.count - 8) % 2 == 1 ? 1 : 0
        return (file, Int(span.lowerBound)..<(Int(span.upperBound) + pad))
    }

    func outcomes(_ s: C2PAMalleabilityTests.Sweep, _ offsets: Range<Int>) -> [String] {
        Set(offsets.compactMap { s.outcome[$0] }).sorted()
    }

    @Test func pngChunkSweep() throws {
        let (file, region) = try signed(.png)
        let v = try C2PAValidatorTests().validator()
        let s = C2PAMalleabilityTests().sweep(file, region: region, validator: v)
        print("PNG caBX sweep over \(region.count) bytes: \(s.outcomes), intact \(s.intact.count)")
        let n = region.count
        let crc = Array((n - 4)..<n)
        let pad = try padOffsets(file, region: region, storeOffset: 8)
        #expect(s.intact == (pad + crc).sorted())
        #expect(s.silent == [])
        #expect(s.outcomes.values.reduce(0, +) == region.count)
        // Field by field (docs/verify.md, Malleability): length, type, store, CRC.
        print("| length | 4 | \(outcomes(s, 0..<4).joined(separator: "; ")) |")
        print("| type `caBX` | 4 | \(outcomes(s, 4..<8).joined(separator: "; ")) |")
        print("| CRC-32 | 4 | \(outcomes(s, (n - 4)..<n).joined(separator: "; ")) |")
        // A flipped type byte is no longer a chunk name (not UTF-8; c2pa-rs: "PNG bad chunk name").
        for o in 4..<8 { #expect(s.outcome[o] == "malformed claim.malformed", "type byte \(o)") }
        // The CRC: c2pa-rs reads its 4 bytes and drops them; ours names the mismatch.
        for o in crc {
            #expect(s.outcome[o] == "intact", "CRC byte \(o)")
            #expect(s.informational[o] == [C2PAValidator.carrierChecksumMismatch], "CRC byte \(o)")
        }
        for o in 0..<4 { #expect(s.outcome[o]?.hasPrefix("malformed") == true, "length byte \(o): \(s.outcome[o] ?? "")") }
        // Every store byte is also under the CRC, so a pad flip names both.
        try padAndClaim(file, region: region, storeOffset: 8, sweep: s,
                        padNotes: [C2PAValidator.carrierChecksumMismatch, C2PAValidator.padNotZero].sorted())
    }

    @Test func wavChunkSweep() throws {
        let (file, region) = try signed(.wav)
        let v = try C2PAValidatorTests().validator()
        let s = C2PAMalleabilityTests().sweep(file, region: region, validator: v)
        print("WAV C2PA sweep over \(region.count) bytes: \(s.outcomes), intact \(s.intact.count)")
        #expect(s.intact == (try padOffsets(file, region: region, storeOffset: 8)))
        #expect(s.silent == [])
        print("| id `C2PA` | 4 | \(outcomes(s, 0..<4).joined(separator: "; ")) |")
        print("| size | 4 | \(outcomes(s, 4..<8).joined(separator: "; ")) |")
        for o in 0..<4 { #expect(s.outcome[o] == "unsigned", "id byte \(o)") }
        for o in 4..<8 { #expect(s.outcome[o]?.hasPrefix("malformed") == true, "size byte \(o): \(s.outcome[o] ?? "")") }
        if (region.count - 8) % 2 == 1 {
            print("| pad byte | 1 | \(s.outcome[region.count - 1] ?? "") |")
            #expect(s.outcome[region.count - 1] == "tampered assertion.dataHash.mismatch")
        }
        try padAndClaim(file, region: region, storeOffset: 8, sweep: s, padNotes: [C2PAValidator.padNotZero])
    }

    /// The region offsets of the COSE `pad` bytes (the pad's content, before the nil payload
    /// and the ES256 signature).
    func padOffsets(_ file: [UInt8], region: Range<Int>, storeOffset: Int) throws -> [Int] {
        let store = Array(file[(region.lowerBound + storeOffset)...])
        let m = try #require(try ManifestStore(parsing: try C2PAFormatAgreementTests.store(of: file)).activeManifest)
        let cose = try COSESign1(parsing: try #require(m.signatureBytes))
        let padLength = try #require(cose.unprotectedHeader["pad"]?.bytesValue?.count)
        let sigAt = try #require(C2PAFormatAgreementTests.index(of: [0x58, 0x40] + cose.signature, in: store)) + storeOffset
        return Array((sigAt - 1 - padLength)..<(sigAt - 1))
    }

    /// The COSE pad bytes stay `intact` with `padNotes` informational (c2pa-rs does not read the
    /// pad outside a JPEG either); no claim byte stays intact.
    func padAndClaim(_ file: [UInt8], region: Range<Int>, storeOffset: Int, sweep s: C2PAMalleabilityTests.Sweep,
                     padNotes: [String]) throws {
        let store = Array(file[(region.lowerBound + storeOffset)...])
        let m = try #require(try ManifestStore(parsing: try C2PAFormatAgreementTests.store(of: file)).activeManifest)
        let pad = try padOffsets(file, region: region, storeOffset: storeOffset)
        for o in pad {
            #expect(s.outcome[o] == "intact", "pad byte \(o)")
            #expect(s.informational[o] == padNotes, "pad byte \(o): \(s.informational[o] ?? [])")
        }
        print("| COSE pad | \(pad.count) | \(Set(pad.compactMap { s.outcome[$0] }).sorted()) \(Set(pad.compactMap { s.informational[$0] }.joined()).sorted()) |")
        let claim = Array(try #require(m.claimBytes))
        let claimAt = try #require(C2PAFormatAgreementTests.index(of: claim, in: store)) + storeOffset
        for o in claimAt..<(claimAt + claim.count) { #expect(s.outcome[o] != "intact", "claim byte \(o)") }
    }
}
