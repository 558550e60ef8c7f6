import C2PA
import Testing
@testable import Verify

/// The three classes of the store-flip set (docs/interop.md, "c2pa-rs fixtures, every format")
/// made on c2pa-rs's own file of each format: c2pa-rs reads each as Trusted, so ours must be
/// `intact` too, with the finding kept as an informational code of ours.
extension C2PAFormatAgreementTests {
    /// A byte in the middle of the COSE unprotected `pad` flipped (c2pa-rs never reads it):
    /// `cose.padNotZero`, informational outside a JPEG.
    static func padFlipped(_ store: [UInt8]) throws -> [UInt8] {
        let m = try FormatMedia.need(try ManifestStore(parsing: store).activeManifest)
        let sig = Array(try FormatMedia.need(m.signatureBytes))
        let cose = try COSESign1(parsing: sig)
        let pad = try FormatMedia.need(cose.unprotectedHeader["pad"]?.bytesValue)
        let key: [UInt8] = [0x63] + Array("pad".utf8)
        let k = try FormatMedia.need(index(of: key, in: sig))
        // The bstr head after the key: 0x40+n, 0x58 n, or 0x59 n n.
        let head = sig[k + 4] == 0x59 ? 3 : sig[k + 4] == 0x58 ? 2 : 1
        let sigAt = try FormatMedia.need(index(of: sig, in: store))
        return flip(store, at: sigAt + k + 4 + head + pad.count / 2)
    }

    /// The `p` of the claim box's label `c2pa.claim.v2` flipped to `q` (`c2qa.claim.v2`): c2pa-rs
    /// finds the box by its `c2cl` type and reads the version from the CBOR.
    static func claimLabelFlipped(_ store: [UInt8]) throws -> [UInt8] {
        let m = try FormatMedia.need(try ManifestStore(parsing: store).activeManifest)
        let claimBox = try FormatMedia.need(m.claimBox)
        let label = Array(try FormatMedia.need(claimBox.label).utf8)
        let at = try FormatMedia.need(index(of: label + [0], in: Array(store[claimBox.range])))
        return flip(store, at: claimBox.range.lowerBound + at + 3)
    }

    /// A PNG's `caBX` CRC-32 with one bit flipped (c2pa-rs reads the 4 bytes and drops them).
    static func crcFlipped(_ file: [UInt8]) throws -> [UInt8] {
        guard case .found(let loc) = try AssetContainer.read(MemoryByteSource(file)).lookup, let span = loc.span else {
            throw FormatMedia.Missing(file: #fileID, line: #line)
        }
        return flip(file, at: Int(span.upperBound) - 1)
    }

    /// The store-flip cases of a c2pa-rs-signed file: each `intact`, noting its code.
    static func storeFlips(of file: [UInt8], name: String, format f: ContainerFormat) throws -> [Case] {
        let store = try store(of: file)
        var cases = [
            Case(name: "\(name) pad flip", bytes: try ManifestBuilder.replaceStore(try padFlipped(store), in: file, format: f),
                 format: f, expect: .intactNoting(C2PAValidator.padNotZero)),
            Case(name: "\(name) claim label flip", bytes: try ManifestBuilder.replaceStore(try claimLabelFlipped(store), in: file, format: f),
                 format: f, expect: .intactNoting(C2PAValidator.claimLabelUnrecognized)),
        ]
        if f == .png {
            cases.append(Case(name: "\(name) CRC flip", bytes: try crcFlipped(file), format: f,
                              expect: .intactNoting(C2PAValidator.carrierChecksumMismatch)))
        }
        return cases
    }
}
