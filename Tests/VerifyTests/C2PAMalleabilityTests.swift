import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// Flip every byte of a signed JPEG's manifest region (and an MP4's `uuid` box) one at a time:
/// nothing crashes, and the flips that stay `intact` are only framing bytes that carry no claim.
@Suite struct C2PAMalleabilityTests {
    struct Sweep {
        /// Region offsets whose flip still reads `intact`.
        var intact: [Int] = []
        /// Region offsets whose flip leaves the whole report unchanged (the seed's measure).
        var silent: [Int] = []
        var outcomes: [C2PAReport.Integrity: Int] = [:]
        /// Per region offset: integrity and failure codes after the flip.
        var outcome: [Int: String] = [:]
        /// Per region offset: the informational codes after the flip (sorted, deduplicated).
        var informational: [Int: [String]] = [:]
    }

    func sweep(_ file: [UInt8], region: Range<Int>, validator: C2PAValidator) -> Sweep {
        var s = Sweep()
        let original = validator.validate(source: MemoryByteSource(file))
        var bytes = file
        for i in region {
            bytes[i] ^= 0xFF
            let r = validator.validate(source: MemoryByteSource(bytes))
            bytes[i] ^= 0xFF
            s.outcomes[r.integrity, default: 0] += 1
            let o = i - region.lowerBound
            if r.integrity == .intact { s.intact.append(o) }
            if r == original { s.silent.append(o) }
            s.outcome[o] = r.integrity.rawValue + (r.failureCodes.isEmpty ? "" : " " + Set(r.failureCodes).sorted().joined(separator: ","))
            s.informational[o] = Set(r.informational.map(\.code)).sorted()
        }
        return s
    }

    /// The seed's JPEG field table (shared/seed/INTEGRITY.md), located in our file: region
    /// offsets (APP11 segment from its marker) of each field the seed lists as malleable.
    static func seedFields(store: ManifestStore, storeStart: Int) throws -> [(field: String, offsets: [Int])] {
        let m = try #require(store.activeManifest)
        func jumd(_ box: JUMBFBox) -> Int { box.payloadRange.lowerBound + 8 } // jumd payload: uuid(16) toggles label
        let claim = try #require(m.claimBox), sig = try #require(m.signatureBox), asr = try #require(m.assertionStore)
        let claimLeaf = try #require(claim.children.first), sigLeaf = try #require(sig.children.first)
        let root = store.root
        let manifestLabel = m.label.utf8.count + 1
        let s = storeStart
        func r(_ a: Int, _ n: Int) -> [Int] { Array((s + a)..<(s + a + n)) }
        return [
            ("APP11 En (instance)", [6, 7]),
            ("store jumb.length (high 3 bytes)", r(root.range.lowerBound, 3)),
            ("store jumb.length (low byte, swing rule)", r(root.range.lowerBound + 3, 1)),
            ("store jumd.uuid suffix, after the c2pa prefix", r(jumd(root) + 4, 12)),
            ("store jumd.label (c2pa)", r(jumd(root) + 17, 5)),
            ("manifest jumd.uuid (c2ma)", r(jumd(m.box), 16)),
            ("manifest jumd.label (urn:…)", r(jumd(m.box) + 17, manifestLabel)),
            ("claim jumd.uuid (c2cl) + jumd.toggle", r(jumd(claim), 17)),
            ("claim cbor leaf length (high 3) + type", r(claimLeaf.range.lowerBound, 3) + r(claimLeaf.range.lowerBound + 4, 4)),
            ("claim cbor leaf length (low byte, swing rule)", r(claimLeaf.range.lowerBound + 3, 1)),
            ("assertions jumd.uuid (c2as)", r(jumd(asr), 16)),
            ("signature jumd.uuid (c2cs) + jumd.toggle", r(jumd(sig), 17)),
            ("signature cbor leaf length (all 4) + type", r(sigLeaf.range.lowerBound, 8)),
        ]
    }

    @Test func jpegManifestRegionSweep() throws {
        let t = C2PAValidatorTests()
        let file = try t.builder(timestamp: false).signJPEG(try t.media("jpg"))
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(file)), let span = loc.span else {
            Issue.record("no store"); return
        }
        let s = sweep(file, region: Int(span.lowerBound)..<Int(span.upperBound), validator: try t.validator())
        print("JPEG sweep over \(span.count) bytes: \(s.outcomes), intact offsets \(s.intact)")
        // Pinned both ways: exactly the APP11 `En` field stays intact, and those two flips change
        // nothing in the report. The COSE pad is checked (zeros), so it is not malleable.
        #expect(s.intact == [6, 7])
        #expect(s.silent == [6, 7])
        // Within the seed's set: 152 fixed bytes + 2 swing low-bytes, field by field.
        let store = try ManifestStore(parsing: loc.storeBytes)
        let storeStart = 4 + 8 // marker+Lp, CI/En/Z before the first packet's store bytes
        let fields = try Self.seedFields(store: store, storeStart: storeStart)
        let seedSet = Set(fields.flatMap(\.offsets))
        #expect(fields.filter { !$0.field.contains("swing") }.reduce(0) { $0 + $1.offsets.count }
                == 152 - 49 + store.activeManifest!.label.utf8.count + 1) // the seed's 49-byte label is `verify:urn:uuid:…`
        #expect(Set(s.intact).isSubset(of: seedSet))
        // The field table (docs/verify.md): each seed field, its bytes, how many stay intact, what is reported.
        for f in fields {
            let outcomes = Set(f.offsets.compactMap { s.outcome[$0] }).sorted()
            print("| \(f.field) | \(f.offsets.count) | \(f.offsets.filter { s.intact.contains($0) }.count) | \(outcomes.joined(separator: "; ")) |")
        }
        // The pad bytes: a named failure, never silent.
        let cose = try COSESign1(parsing: try #require(store.activeManifest?.signatureBytes))
        let padLength = try #require(cose.unprotectedHeader["pad"]?.bytesValue?.count)
        let sigAt = try #require(t.index(of: [0x58, 0x40] + cose.signature, in: file)) - Int(span.lowerBound)
        let padEnd = sigAt - 1 // the nil payload (0xF6) sits between the header map and the signature
        for o in (padEnd - padLength)..<padEnd { #expect(s.outcome[o] == "tampered \(C2PAValidator.padNotZero)") }
        // No byte of the claim stays intact.
        let claim = try #require(store.activeManifest?.claimBytes)
        for off in s.intact { #expect(!(claim.indices.contains(off - storeStart)), "claim byte is malleable") }
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
        // Pinned both ways: only the FullBox version/flags (the seed's "uuid box version and
        // flags (4 bytes)"); the merkle offset is checked (0 without merkle hashing).
        #expect(s.intact == Array(24..<28))
        #expect(s.silent == Array(24..<28))
        for o in 37..<45 { #expect(s.outcome[o] == "tampered \(C2PAValidator.merkleOffsetUnexpected)") }
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
