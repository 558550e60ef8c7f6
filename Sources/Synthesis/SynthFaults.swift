import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground

/// The byte-level faults and what a correct reader reports for each.
enum SynthFaults {
    struct C2PAExpectation {
        var integrity: String
        var trust: String?
        var failureCodes: [String]
        var timestamp: String
    }

    /// Integrity, trust (with the signer root as anchor), failure codes and timestamp state.
    static func expectedC2PA(_ fault: SynthFault?, trusted: Bool, timestamped: Bool, video: Bool = false) -> C2PAExpectation {
        let ts = timestamped ? "validated" : "absent"
        let untrusted = trusted ? [] : [StatusCode.signingCredentialUntrusted]
        switch fault {
        case .mediaFlip?, .truncated?:
            return C2PAExpectation(integrity: "tampered", trust: trusted ? "trusted" : "untrusted",
                                   failureCodes: ([StatusCode.assertionDataHashMismatch] + untrusted).sorted(), timestamp: ts)
        case .videoMediaFlip?:
            return C2PAExpectation(integrity: "tampered", trust: trusted ? "trusted" : "untrusted",
                                   failureCodes: ([StatusCode.assertionBmffHashMismatch] + untrusted).sorted(), timestamp: ts)
        case .claimFlip?, .signatureFlip?:
            // Trust is the credential's chain verdict, as c2pa-rs reports it: a broken signature
            // makes the capture tampered, not its certificate untrusted.
            return C2PAExpectation(integrity: "tampered", trust: trusted ? "trusted" : "untrusted",
                                   failureCodes: ([StatusCode.claimSignatureMismatch] + untrusted).sorted(), timestamp: ts)
        case .assertionFlip?:
            return C2PAExpectation(integrity: "tampered", trust: trusted ? "trusted" : "untrusted",
                                   failureCodes: ([StatusCode.assertionHashedURIMismatch] + untrusted).sorted(), timestamp: ts)
        case .unsigned?:
            return C2PAExpectation(integrity: "unsigned", trust: nil, failureCodes: [], timestamp: "absent")
        case .garbageManifest?:
            return C2PAExpectation(integrity: "malformed", trust: nil, failureCodes: [StatusCode.claimMalformed], timestamp: "absent")
        default:
            return C2PAExpectation(integrity: "intact", trust: trusted ? "trusted" : "untrusted", failureCodes: untrusted, timestamp: ts)
        }
    }

    static func index(of needle: [UInt8], in hay: [UInt8], from: Int = 0) -> Int? {
        guard !needle.isEmpty, needle.count <= hay.count, let first = needle.first else { return nil }
        var i = from
        while i <= hay.count - needle.count {
            if hay[i] == first, hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    static func store(of file: [UInt8], video: Bool) throws -> (ManifestLocation, ManifestStore) {
        let src = MemoryByteSource(file)
        guard case .found(let loc) = try (video ? BMFFContainer.manifest(in: src) : JPEGContainer.manifest(in: src)) else {
            throw SynthError(StatusCode.synthInternal, "signed file has no store")
        }
        return (loc, try ManifestStore(parsing: loc.storeBytes))
    }

    /// The file offset range of the last zero run before the COSE payload `null` — the content of
    /// the last pad bstr — minus its first 4 bytes (which may be length bytes).
    static func padRange(_ file: [UInt8], video: Bool) throws -> Range<Int> {
        let (_, store) = try store(of: file, video: video)
        guard let sigBytes = store.activeManifest?.signatureBytes else { throw SynthError(StatusCode.synthInternal, "no signature box") }
        let cose = try COSESign1(parsing: sigBytes)
        guard let at = index(of: cose.signature, in: file), at >= 3, file[at - 3] == 0xF6 else {
            throw SynthError(StatusCode.synthInternal, "COSE layout not as written")
        }
        let end = at - 3
        var start = end
        while start > 0, file[start - 1] == 0 { start -= 1 }
        guard end - start >= 64 else { throw SynthError(StatusCode.synthInternal, "pad too short") }
        return (start + 4)..<end
    }

    /// The signed file with 32 bytes of the COSE pad set to `pattern` (unsigned framing).
    static func refillPad(_ file: [UInt8], pattern: UInt8, video: Bool) throws -> [UInt8] {
        let r = try padRange(file, video: video)
        var out = file
        for i in r.lowerBound..<min(r.upperBound, r.lowerBound + 32) { out[i] = pattern }
        return out
    }

    /// A JPEG with the APP11 box-instance field `En` of every segment of its store set to
    /// `instance` — transport framing in the seed's JPEG malleable set (the COSE pad is malleable
    /// only in video there, so a JPEG's pad must stay zeros).
    static func setInstance(_ file: [UInt8], _ instance: UInt16) throws -> [UInt8] {
        let (loc, _) = try store(of: file, video: false)
        var out = file
        for r in loc.ranges {
            let at = Int(r.lowerBound)
            guard at + 8 <= out.count, out[at] == 0xFF, out[at + 1] == 0xEB, out[at + 4] == 0x4A, out[at + 5] == 0x50 else {
                throw SynthError(StatusCode.synthInternal, "APP11 segment not as written at \(at)")
            }
            out[at + 6] = UInt8(instance >> 8)
            out[at + 7] = UInt8(instance & 0xFF)
        }
        return out
    }

    /// The delivery file with a C2PA-level fault applied (others leave it unchanged).
    static func apply(_ fault: SynthFault?, toSigned file: [UInt8], video: Bool) throws -> [UInt8] {
        var out = file
        switch fault {
        case .mediaFlip?:
            out[out.count - 20] ^= 0x01
        case .videoMediaFlip?:
            guard let mdat = index(of: Array("mdat".utf8), in: file) else { throw SynthError(StatusCode.synthInternal, "no mdat") }
            out[mdat + 4 + 5000] ^= 0x01
        case .claimFlip?:
            let (_, store) = try store(of: file, video: video)
            guard let claim = store.activeManifest?.claimBytes, let at = index(of: Array(claim), in: file),
                  let iid = index(of: Array("xmp:iid:".utf8), in: Array(claim)) else { throw SynthError(StatusCode.synthInternal, "claim not found") }
            out[at + iid + 10] ^= 0x01
        case .signatureFlip?:
            let (_, store) = try store(of: file, video: video)
            guard let sigBytes = store.activeManifest?.signatureBytes else { throw SynthError(StatusCode.synthInternal, "no signature") }
            let cose = try COSESign1(parsing: sigBytes)
            guard let at = index(of: cose.signature, in: file) else { throw SynthError(StatusCode.synthInternal, "signature not found") }
            out[at + 5] ^= 0x01
        case .assertionFlip?:
            guard let at = index(of: Array("jumbf manifest".utf8), in: file) else { throw SynthError(StatusCode.synthInternal, "hash assertion not found") }
            out[at + 3] ^= 0x01
        case .malleableFlip?:
            out = try setInstance(file, 0x8001)
        case .videoMalleableFlip?:
            out = try refillPad(file, pattern: 0x5A, video: true)
        case .truncated?:
            out = Array(file.prefix(file.count - 1000))
        case .garbageManifest?:
            let (loc, _) = try store(of: file, video: video)
            guard let span = loc.span else { throw SynthError(StatusCode.synthInternal, "no span") }
            for i in (Int(span.lowerBound) + 60)..<(Int(span.lowerBound) + 200) { out[i] = 0x5A }
        default:
            break
        }
        return out
    }
}
