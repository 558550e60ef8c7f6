import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
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

    /// A PKI valid from 60 days ago whose signer certificate expired 10 days ago; files are
    /// signed and time-stamped 20 days ago, as `sdk/tests/fixtures/ocsp.jpg` was (its leaf has
    /// expired since).
    static let expired = Result { try C2PAValidatorTests.PKI(start: Date(timeIntervalSinceNow: -60 * 86_400),
                                                             leafEnd: Date(timeIntervalSinceNow: -10 * 86_400)) }
    static let signedAt = Date(timeIntervalSinceNow: -20 * 86_400)

    func expiredSignerBuilder(claimVersion: Int, header: TimestampVersion) throws -> ManifestBuilder {
        let pki = try Self.expired.get()
        var b = try t.builder(timestamp: false)
        b.signer = ManifestBuilder.Signer(algorithm: .es256, certificateChain: [pki.leaf.der, pki.root.der],
                                          sign: { try pki.leafKey.sign($0, algorithm: .es256) },
                                          timestamp: { try pki.tsa.response(imprintOf: $0, at: Self.signedAt, serial: 5) })
        b.signer.timestampHeader = header
        b.claimVersion = claimVersion
        if claimVersion == 1 { b.assertions = [] } // v1 claims carry no actions.v2
        return b
    }

    /// A v1 claim with a `sigTst` (imprint over the claim) from a TSA nobody trusts: c2pa-rs
    /// skips TSA trust for v1 claims ("legacy timestamp cert trusted") and validates the signer
    /// at the token's time; a v2 claim with the same kind of token is validated now. The token's
    /// time is its CMS `signingTime` attribute when present, else genTime; our test TSA stamps
    /// genTime = 20 days ago but OpenSSL signs signingTime = now, so the expired leaf shows in
    /// both (`signingCredential.expired` + `.untrusted`); the report keeps genTime.
    @Test func v1ClaimTimestampIsTheSigningTimeEvenUntrusted() throws {
        let pki = try Self.expired.get()
        let v = C2PAValidator(signerAnchors: try TrustAnchors([pki.root]), tsaAnchors: .none)
        let media = try t.media("jpg")
        let v1 = try expiredSignerBuilder(claimVersion: 1, header: .v1).signJPEG(media)
        let r1 = v.validate(source: MemoryByteSource(v1))
        #expect(r1.claimVersion == 1)
        #expect(r1.timestamp.header == "sigTst" && r1.timestamp.state == "untrusted")
        #expect(abs((r1.timestamp.genTime ?? .distantPast).timeIntervalSince(Self.signedAt)) < 1)
        #expect(r1.integrity == .intact && r1.trust == .untrusted)
        #expect(Set(r1.failureCodes) == ["signingCredential.expired", "signingCredential.untrusted"])
        #expect(r1.failure.first { $0.code == "signingCredential.expired" }?.explanation == "at the timestamp's time")
        #expect(r1.informational.contains { $0.code == "timeStamp.untrusted" && ($0.explanation ?? "").contains("v1 claim") })

        let v2 = try expiredSignerBuilder(claimVersion: 2, header: .v2).signJPEG(media)
        let r2 = v.validate(source: MemoryByteSource(v2))
        #expect(r2.claimVersion == 2 && r2.timestamp.state == "untrusted")
        #expect(r2.integrity == .intact && r2.trust == .untrusted)
        #expect(Set(r2.failureCodes) == ["signingCredential.expired", "signingCredential.untrusted"])
        #expect(r2.failure.first { $0.code == "signingCredential.expired" }?.explanation == "at the current time")

        // The token's own times: genTime as stamped, signingTime = the TSA's clock.
        let token = try TimeStampToken(der: try pki.tsa.token(imprintOf: [1, 2, 3], at: Self.signedAt, serial: 8))
        #expect(abs(token.genTime.timeIntervalSince(Self.signedAt)) < 1)
        let signed = try #require(token.signingTime)
        #expect(abs(signed.timeIntervalSinceNow) < 120)
        #expect(token.validationTime == signed)

        guard C2PAReferenceAgreementTests.python != nil else { return }
        // c2pa-rs given the signer root only (its single list would otherwise trust the TSA).
        for (name, file, ours, legacy) in [("v1", v1, r1, true), ("v2", v2, r2, false)] {
            let ref = try #require(try agreement.reference(file, mime: "image/jpeg", anchorsPEM: pki.root.pem))
            #expect(Set(ref.failure) == Set(ours.failureCodes), "\(name): c2pa-rs \(ref.failure)")
            #expect((ref.other ?? []).contains("timeStamp.trusted") == legacy, "\(name): \(ref.other ?? [])")
        }
    }

    /// Every `timeStamp.*` finding is informational (c2pa-rs time_stamp/verify.rs): a flipped
    /// signature breaks the `sigTst2` imprint, and only `claimSignature.mismatch` is a failure.
    @Test func timestampFindingsAreInformational() throws {
        let pki = try C2PAValidatorTests.pki.get()
        let file = try t.builder(timestamp: true).signJPEG(try t.media("jpg"))
        let cose = try COSESign1(parsing: try #require(try signature(of: file)))
        let sig = try #require(t.index(of: cose.signature, in: file))
        let flipped = t.flip(file, at: sig + 5)
        let r = try t.validator().validate(source: MemoryByteSource(flipped))
        #expect(r.integrity == .tampered)
        #expect(r.failureCodes == ["claimSignature.mismatch"])
        #expect(r.informational.map(\.code).contains("timeStamp.mismatch"))
        #expect(r.timestamp.state == "mismatch")

        // A token whose genTime does not parse (minute 63, as in c2pa-rs's CA_ct.jpg): the time is
        // lost, informational `timeStamp.malformed`; the file stays intact.
        var b = try t.builder(timestamp: false)
        b.signer.timestamp = { data in
            var token = try pki.tsa.token(imprintOf: data, at: Date(), serial: 9)
            // GeneralizedTime tag 0x18, then YYYYMMDDhhmm: set mm to 63.
            guard let at = (0..<(token.count - 16)).first(where: { token[$0] == 0x18 && token[$0 + 1] >= 15 && token[$0 + 1] <= 25
                && token[$0 + 2 ..< $0 + 6].elementsEqual(Array(String(Calendar.current.component(.year, from: Date())).utf8)) })
            else { throw CryptoError("test", "no genTime") }
            token[at + 12] = UInt8(ascii: "6")
            token[at + 13] = UInt8(ascii: "3")
            return token
        }
        let badTime = try b.signJPEG(try t.media("jpg"))
        let rt = try t.validator().validate(source: MemoryByteSource(badTime))
        #expect(rt.integrity == .intact && rt.trust == .trusted)
        #expect(rt.failure == [])
        #expect(rt.timestamp.state == "malformed")
        #expect(rt.informational.contains { $0.code == "timeStamp.malformed" && ($0.explanation ?? "").contains("tst.badGenTime") })

        guard C2PAReferenceAgreementTests.python != nil else { return }
        for (name, bytes, ours) in [("signature flip", flipped, r), ("bad genTime", badTime, rt)] {
            let ref = try #require(try agreement.reference(bytes, mime: "image/jpeg", anchorsPEM: pki.root.pem + pki.tsaRoot.pem))
            #expect(verdict(ref) == verdict(ours), "\(name): c2pa-rs \(ref.state) \(ref.failure)")
            #expect(Set(ref.failure) == Set(ours.failureCodes), "\(name)")
            let refTime = (ref.other ?? []).filter { $0.hasPrefix("timeStamp.") && $0 != "timeStamp.validated" }
            #expect(refTime == [name == "signature flip" ? "timeStamp.mismatch" : "timeStamp.malformed"], "\(name): \(ref.other ?? [])")
        }
    }

    /// Stores c2pa-rs refuses to load (store.rs `from_jumbf`): a claim without `alg`, and
    /// pre-release hashing (the first assertion's hashed URI over its content box only).
    @Test func storesC2paRsRefusesAreMalformed() throws {
        let pki = try C2PAValidatorTests.pki.get()
        let media = try t.media("jpg")
        var noAlg = try t.builder(timestamp: false)
        noAlg.claimAlgorithm = nil
        var prerelease = try t.builder(timestamp: false)
        prerelease.prereleaseHashing = true
        for (name, builder, reason) in [("no alg", noAlg, "algorithm.unsupported"), ("prerelease", prerelease, "manifest.prerelease")] {
            let file = try builder.signJPEG(media)
            let r = try t.validator().validate(source: MemoryByteSource(file))
            #expect(r.integrity == .malformed, "\(name): \(r.failure)")
            #expect(r.reason == reason, "\(name)")
            guard C2PAReferenceAgreementTests.python != nil else { continue }
            let ref = try #require(try agreement.reference(file, mime: "image/jpeg", anchorsPEM: pki.root.pem))
            #expect(ref.state == "error", "\(name): c2pa-rs \(ref.state) \(ref.failure)")
            #expect((ref.error ?? "").contains(name == "no alg" ? "unknown algorithm" : "prerelease"), "\(name): \(ref.error ?? "")")
        }
        // The same builders with the defaults give a file both read as intact.
        let plain = try t.builder(timestamp: false).signJPEG(media)
        #expect(try t.validator().validate(source: MemoryByteSource(plain)).integrity == .intact)
    }

    func signature(of file: [UInt8]) throws -> ArraySlice<UInt8>? {
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(file)) else { return nil }
        return try ManifestStore(parsing: loc.storeBytes).activeManifest?.signatureBytes
    }
}
