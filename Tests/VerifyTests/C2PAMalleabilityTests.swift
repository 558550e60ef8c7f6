import C2PA
import Crypto
import Foundation
import Testing
@testable import Verify

/// Flip every byte of a signed JPEG's manifest region (and an MP4's `uuid` box) one at a time:
/// nothing crashes, and the flips that stay `intact` are only framing bytes that carry no claim.
@Suite struct C2PAMalleabilityTests {
    struct Sweep {
        var intact: [Int] = []
        var outcomes: [C2PAReport.Integrity: Int] = [:]
    }

    func sweep(_ file: [UInt8], region: Range<Int>, validator: C2PAValidator) -> Sweep {
        var s = Sweep()
        var bytes = file
        for i in region {
            bytes[i] ^= 0xFF
            let r = validator.validate(source: MemoryByteSource(bytes))
            bytes[i] ^= 0xFF
            s.outcomes[r.integrity, default: 0] += 1
            if r.integrity == .intact { s.intact.append(i - region.lowerBound) }
        }
        return s
    }

    @Test func jpegManifestRegionSweep() throws {
        let t = C2PAValidatorTests()
        let file = try t.builder(timestamp: false).signJPEG(try t.media("jpg"))
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(file)), let span = loc.span else {
            Issue.record("no store"); return
        }
        let s = sweep(file, region: Int(span.lowerBound)..<Int(span.upperBound), validator: try t.validator())
        print("JPEG sweep over \(span.count) bytes: \(s.outcomes), intact offsets \(s.intact)")
        // The seed's bound: 152 fixed framing bytes + 2 length low-bytes.
        #expect(s.intact.count <= 154)
        // Pinned both ways: exactly the APP11 `En` field (box instance number, compared only across
        // packets) and the content of the COSE unprotected `pad` bstr (unsigned by design).
        let cose = try COSESign1(parsing: try #require(try ManifestStore(parsing: loc.storeBytes).activeManifest?.signatureBytes))
        let padLength = try #require(cose.unprotectedHeader["pad"]?.bytesValue?.count)
        let sigAt = try #require(t.index(of: [0x58, 0x40] + cose.signature, in: file)) - Int(span.lowerBound)
        let padEnd = sigAt - 1 // the nil payload (0xF6) sits between the header map and the signature
        #expect(s.intact == [6, 7] + Array((padEnd - padLength)..<padEnd))
        // No byte of the claim, the signature or an assertion's content stays intact.
        let store = try ManifestStore(parsing: loc.storeBytes)
        let m = try #require(store.activeManifest)
        let claim = try #require(m.claimBytes)
        let storeStart = 4 + 8 // marker+Lp, CI/En/Z before the first packet's store bytes
        for off in s.intact {
            let inStore = off - storeStart
            #expect(!(claim.indices.contains(inStore)), "claim byte \(inStore) is malleable")
        }
    }

    @Test func mp4UuidBoxSweep() throws {
        let t = C2PAValidatorTests()
        let file = try t.builder(timestamp: false).signMP4(try t.media("mp4"), bmffVersion: 2)
        guard case .found(let loc) = try BMFFContainer.manifest(in: MemoryByteSource(file)), let span = loc.span else {
            Issue.record("no store"); return
        }
        // The box framing (header, usertype, version/flags, purpose, merkle offset) and the first
        // store bytes.
        let region = Int(span.lowerBound)..<min(Int(span.upperBound), Int(span.lowerBound) + 45 + 64)
        let s = sweep(file, region: region, validator: try t.validator())
        print("MP4 uuid sweep over \(region.count) bytes: \(s.outcomes), intact offsets \(s.intact)")
        // Pinned both ways: the FullBox version/flags (the exclusion matches the usertype, not
        // them) and the merkle-offset field; nothing of the purpose, usertype or the store.
        #expect(s.intact == Array(24..<28) + Array(37..<45))
    }
}

/// Truncation at many lengths and scattered corruption never crash the validator and never
/// come out `intact`.
@Suite struct C2PARobustnessTests {
    @Test func truncationsAndCorruption() throws {
        let t = C2PAValidatorTests()
        let v = try t.validator()
        for (kind, version) in [("jpg", 0), ("mp4", 2)] {
            let media = try t.media(kind)
            let file = kind == "jpg" ? try t.builder(timestamp: true).signJPEG(media)
                                     : try t.builder(timestamp: true).signMP4(media, bmffVersion: version)
            for n in stride(from: 0, to: file.count, by: max(1, file.count / 700)) {
                let r = v.validate(source: MemoryByteSource(Array(file.prefix(n))))
                #expect(r.integrity != .intact, "\(kind) truncated to \(n)")
            }
            // Corrupt 4 bytes at a time across the first 64 KiB (headers, moov, manifest).
            var rng = SystemRandomNumberGenerator()
            for _ in 0..<400 {
                var b = file
                for _ in 0..<4 {
                    let i = Int.random(in: 0..<min(b.count, 65_536), using: &rng)
                    b[i] = UInt8.random(in: 0...255, using: &rng)
                }
                _ = v.validate(source: MemoryByteSource(b))
            }
        }
    }
}
