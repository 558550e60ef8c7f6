@testable import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

/// The time-stamp token's certificates split off before the CMS parse (a cache by DER) must
/// give the same token and the same verdicts as parsing it whole.
@Suite struct SignedDataCertificatesTests {
    let data = Array("bytes a sigTst2 token time-stamps".utf8)

    func token() throws -> (TestPKI, [UInt8]) {
        let pki = try TestPKI()
        let tsa = TimeStampAuthority(certificate: pki.tsa, key: pki.tsaKey)
        return (pki, try tsa.token(imprintOf: data, at: Date(timeIntervalSince1970: 1_750_000_000), serial: 9))
    }

    @Test func splitFindsTheCarriedCertificateAndStripsIt() throws {
        let (pki, der) = try token()
        let split = try #require(SignedDataCertificates.split(der))
        #expect(split.certificates == [pki.tsa.der])
        #expect(split.stripped.count < der.count - pki.tsa.der.count + 8)
        // The stripped CMS has no certificates field left to split.
        #expect(SignedDataCertificates.split(split.stripped) == nil)
        let t = try TimeStampToken(der: der)
        #expect(t.carriedSeparately)
        #expect(t.tsaCertificates == [pki.tsa] && t.signerCertificate == pki.tsa)
        #expect(t.tokenDER == der)
        #expect(t.verify(imprintOf: data, anchors: try TrustAnchors([pki.root])) == .valid(genTime: t.genTime))
        let whole = try TimeStampToken(der: der, splittingCertificates: false)
        #expect(!whole.carriedSeparately)
        #expect(whole.serialNumberHex == t.serialNumberHex && whole.genTime == t.genTime && whole.policyOID == t.policyOID)
    }

    @Test func notPlainDERIsLeftToTheWholeParse() throws {
        let (_, der) = try token()
        // Indefinite length on the outer SEQUENCE (BER): no split.
        #expect(der[0] == 0x30 && der[1] & 0x80 != 0)
        let lengthBytes = Int(der[1] & 0x7F)
        let ber = [0x30, 0x80] + Array(der[(2 + lengthBytes)...]) + [0, 0]
        #expect(SignedDataCertificates.split(ber) == nil)
        #expect(SignedDataCertificates.split(der + [0]) == nil)
        #expect(SignedDataCertificates.split(Array(der.prefix(der.count - 1))) == nil)
        #expect(SignedDataCertificates.split([]) == nil)
        // A non-minimal length (a leading zero length byte) is not DER: no split.
        #expect(der[1] == 0x82)
        let long = [0x30, 0x83, 0x00] + Array(der[2...])
        #expect(SignedDataCertificates.split(long) == nil)
        // Not SignedData (content type id-data): no split.
        let oidAt = 2 + lengthBytes
        #expect(Array(der[oidAt..<(oidAt + 11)]) == SignedDataCertificates.signedDataOID)
        var data = der; data[oidAt + 10] = 0x01
        #expect(SignedDataCertificates.split(data) == nil)
    }

    @Test func everyFlipGivesTheSameVerdictBothWays() throws {
        let (pki, der) = try token()
        let anchors = try TrustAnchors([pki.root])
        func verdict(_ bytes: [UInt8], split: Bool) -> String {
            do {
                let t = try TimeStampToken(der: bytes, splittingCertificates: split)
                return "\(t.verify(imprintOf: data, anchors: anchors)) \(t.tsaCertificates.map(\.der)) \(t.serialNumberHex)"
            } catch {
                return "error \(error.code)"
            }
        }
        var splitTaken = 0
        for i in stride(from: 0, to: der.count, by: 3) {
            for mask: UInt8 in [0x01, 0x80] {
                var flipped = der
                flipped[i] ^= mask
                if SignedDataCertificates.split(flipped) != nil { splitTaken += 1 }
                #expect(verdict(flipped, split: true) == verdict(flipped, split: false), "byte \(i) ^ \(mask)")
            }
        }
        #expect(splitTaken > der.count / 3)  // most flips keep the shape, so the split path is exercised
    }
}
