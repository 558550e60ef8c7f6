import C2PA
import Crypto
import Foundation
import Testing
@testable import Verify

/// The older forms c2pa-rs still reads (its own test fixtures carry them), reproduced with our
/// writers and checked against c2pa-python (c2pa-rs) on the same files: where the certificate
/// chain sits, `sigTst` (v1) over a v1 claim, timestamp findings, claims without `alg`,
/// pre-release hashing. docs/interop.md, "Signature group".
@Suite struct C2PALegacyFormTests {
    let t = C2PAValidatorTests()
    let agreement = C2PAReferenceAgreementTests()

    /// c2pa-rs's reader state in our words (`malformed` when its Reader throws).
    func verdict(_ ref: C2PAReferenceAgreementTests.Reference) -> String {
        switch ref.state {
        case "Trusted": "intact/trusted"
        case "Valid": "intact/untrusted"
        case "Invalid": "tampered"
        default: "malformed"
        }
    }

    func verdict(_ r: C2PAReport) -> String {
        switch r.integrity {
        case .intact: "intact/\(r.trust)"
        default: r.integrity.rawValue
        }
    }

    /// c2pa-rs `cert_chain_from_sign1`: protected 33 or "x5chain"; unprotected only "x5chain";
    /// not both; none is no credential.
    @Test func certificateChainPlacements() throws {
        let pki = try C2PAValidatorTests.pki.get()
        let v = try t.validator()
        let media = try t.media("jpg")
        let expected: [(COSESign1.ChainPlacement, String)] = [
            (.protected, "intact/trusted"), (.protectedText, "intact/trusted"), (.unprotectedText, "intact/trusted"),
            (.unprotectedLabel33, "malformed"), (.none, "malformed"), (.both, "malformed"),
        ]
        for (placement, want) in expected {
            var b = try t.builder(timestamp: false)
            b.signer.chainPlacement = placement
            let file = try b.signJPEG(media)
            let r = v.validate(source: MemoryByteSource(file))
            #expect(verdict(r) == want, "\(placement): \(r.integrity)/\(r.trust) \(r.failure)")
            let cose = try COSESign1(parsing: try #require(try signature(of: file)))
            switch placement {
            case .protected, .protectedText:
                #expect(try cose.certificateChain().header == .protected)
                #expect(cose.x5chain == [pki.leaf.der, pki.root.der])
            case .unprotectedText:
                #expect(try cose.certificateChain().header == .unprotected)
                #expect(cose.x5chainIsUnprotected)
            case .unprotectedLabel33, .none:
                #expect(throws: COSEError.x5chainMissing) { try cose.certificateChain() }
            case .both:
                #expect(throws: COSEError.x5chainInBothHeaders) { try cose.certificateChain() }
            }
            if want == "malformed" {
                #expect(r.failureCodes == ["signingCredential.invalid"], "\(placement)")
            } else {
                #expect(r.failure == [])
            }
            guard C2PAReferenceAgreementTests.python != nil else { continue }
            let ref = try #require(try agreement.reference(file, mime: "image/jpeg", anchorsPEM: pki.root.pem))
            #expect(verdict(ref) == want, "\(placement): c2pa-rs \(ref.state) \(ref.failure) \(ref.error ?? "")")
            if ref.state != "error" { #expect(Set(r.failureCodes) == Set(ref.failure), "\(placement)") }
        }
    }

    func signature(of file: [UInt8]) throws -> ArraySlice<UInt8>? {
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(file)) else { return nil }
        return try ManifestStore(parsing: loc.storeBytes).activeManifest?.signatureBytes
    }
}
