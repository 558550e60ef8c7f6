@testable import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

@Suite struct SignatureTests {
    static let cases: [(KeyKind, SignatureAlgorithm)] = [
        (.p256, .es256), (.p384, .es384), (.p521, .es512),
        (.rsa2048, .ps256), (.rsa2048, .ps384), (.rsa2048, .ps512), (.ed25519, .ed25519),
    ]

    @Test func coseIdentifiersRoundTrip() {
        #expect(SignatureAlgorithm.allCases.map(\.coseIdentifier) == [-7, -35, -36, -37, -38, -39, -8])
        for alg in SignatureAlgorithm.allCases { #expect(SignatureAlgorithm(coseIdentifier: alg.coseIdentifier) == alg) }
        #expect(SignatureAlgorithm(coseIdentifier: -257) == nil)
    }

    @Test(arguments: 0..<7)
    func signVerifyRoundTripAndFlips(index: Int) throws {
        let (kind, alg) = SignatureTests.cases[index]
        let key = try PrivateKey.generate(kind)
        let message = Array("exhibit \(alg.rawValue)".utf8)
        let sig = try key.sign(message, algorithm: alg)
        if let curve = alg.requiredCurve { #expect(sig.count == 2 * curve.fieldBytes) }
        if alg == .ed25519 { #expect(sig.count == 64) }
        if alg.isPSS { #expect(sig.count == 256) }
        let pub = try PublicKey(spkiDER: key.publicKey.spkiDER)
        #expect(pub.verify(signature: sig, message: message, algorithm: alg))
        var badSig = sig; badSig[badSig.count / 2] ^= 0x01
        #expect(!pub.verify(signature: badSig, message: message, algorithm: alg))
        var badMsg = message; badMsg[0] ^= 0x80
        #expect(!pub.verify(signature: sig, message: badMsg, algorithm: alg))
        #expect(!pub.verify(signature: Array(sig.dropLast()), message: message, algorithm: alg))
    }

    @Test func curveMustMatchAlgorithm() throws {
        let key = try PrivateKey.generate(.p256)
        let sig = try key.sign([1, 2, 3], algorithm: .es256)
        #expect(!key.publicKey.verify(signature: sig, message: [1, 2, 3], algorithm: .es384))
        #expect(throws: CryptoError.self) { try key.sign([1], algorithm: .es384) }
        #expect(throws: CryptoError.self) { try key.sign([1], algorithm: .ps256) }
    }

    @Test func pssSaltIsHashLength() throws {
        // PS256 with salt 32 verifies under OpenSSL's strict salt-length check; a key from the
        // CLI and its `-sigopt rsa_pss_saltlen:32` signature verify here.
        let dir = try TempDir()
        try OpenSSLCLI.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", dir.path("k.pem")])
        try dir.write("m", "pss message")
        try OpenSSLCLI.run(["dgst", "-sha256", "-sign", dir.path("k.pem"), "-sigopt", "rsa_padding_mode:pss",
                            "-sigopt", "rsa_pss_saltlen:32", "-sigopt", "rsa_mgf1_md:sha256", "-out", dir.path("s"), dir.path("m")])
        let key = try PrivateKey(pem: String(decoding: try dir.read("k.pem"), as: UTF8.self))
        #expect(key.publicKey.verify(signature: try dir.read("s"), message: Array("pss message".utf8), algorithm: .ps256))
        try OpenSSLCLI.run(["dgst", "-sha256", "-sign", dir.path("k.pem"), "-sigopt", "rsa_padding_mode:pss",
                            "-sigopt", "rsa_pss_saltlen:20", "-out", dir.path("s20"), dir.path("m")])
        #expect(!key.publicKey.verify(signature: try dir.read("s20"), message: Array("pss message".utf8), algorithm: .ps256))
    }

    @Test func ecdsaDERFromOpenSSLVerifiesAfterConversion() throws {
        let dir = try TempDir()
        try OpenSSLCLI.run(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", dir.path("ec.pem")])
        try dir.write("m", "hello from the openssl cli")
        try OpenSSLCLI.run(["dgst", "-sha256", "-sign", dir.path("ec.pem"), "-out", dir.path("sig.der"), dir.path("m")])
        let key = try PrivateKey(pem: String(decoding: try dir.read("ec.pem"), as: UTF8.self))
        #expect(key.keyType == .ec(.p256))
        let raw = try ECDSASignatureEncoding.raw(fromDER: try dir.read("sig.der"), curve: .p256)
        #expect(raw.count == 64)
        #expect(key.publicKey.verify(signature: raw, message: Array("hello from the openssl cli".utf8), algorithm: .es256))
        // And the reverse: our raw signature, as DER, verifies under `openssl dgst -verify`.
        let ours = try key.sign(Array("hello from the openssl cli".utf8), algorithm: .es256)
        try dir.write("ours.der", try ECDSASignatureEncoding.der(fromRaw: ours, curve: .p256))
        try OpenSSLCLI.run(["pkey", "-in", dir.path("ec.pem"), "-pubout", "-out", dir.path("pub.pem")])
        let out = try OpenSSLCLI.run(["dgst", "-sha256", "-verify", dir.path("pub.pem"), "-signature", dir.path("ours.der"), dir.path("m")])
        #expect(String(decoding: out, as: UTF8.self).contains("Verified OK"))
    }

    @Test func rawDERConversionRejectsBadInput() throws {
        #expect(throws: CryptoError("ecdsa.rawLength", "raw P-256 signature must be 64 bytes, got 63")) {
            try ECDSASignatureEncoding.der(fromRaw: [UInt8](repeating: 1, count: 63), curve: .p256)
        }
        let der = try ECDSASignatureEncoding.der(fromRaw: [UInt8](repeating: 7, count: 64), curve: .p256)
        #expect(try ECDSASignatureEncoding.raw(fromDER: der, curve: .p256) == [UInt8](repeating: 7, count: 64))
        do {
            _ = try ECDSASignatureEncoding.raw(fromDER: der + [0], curve: .p256)
            Issue.record("trailing byte accepted")
        } catch { #expect(error.code == "der.trailingBytes") }
        do {
            _ = try ECDSASignatureEncoding.raw(fromDER: try ECDSASignatureEncoding.der(fromRaw: [UInt8](repeating: 0xff, count: 96), curve: .p384), curve: .p256)
            Issue.record("48-byte r accepted for P-256")
        } catch { #expect(error.code == "ecdsa.valueTooWide") }
    }

    @Test func pemRoundTripAndBadInput() throws {
        let key = try PrivateKey.generate(.p384)
        #expect(key.pemPKCS8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let again = try PrivateKey(pem: key.pemPKCS8)
        #expect(again.publicKey.spkiDER == key.publicKey.spkiDER)
        #expect(again.keyType == .ec(.p384))
        #expect(throws: CryptoError.self) { try PrivateKey(pem: "not a key") }
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: key.publicKey.spkiDER + [0]) }
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: []) }
    }

    @Test func keyTypes() throws {
        #expect(try PrivateKey.generate(.rsa2048).publicKey.keyType == .rsa(bits: 2048))
        #expect(try PrivateKey.generate(.ed25519).publicKey.keyType == .ed25519)
        #expect(try PrivateKey.generate(.p521).publicKey.keyType == .ec(.p521))
    }
}

@Suite struct RSAPSSKeyTests {
    @Test func rsaPSSKeyFromCLIVerifiesPS256() throws {
        let dir = try TempDir()
        try OpenSSLCLI.run(["genpkey", "-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048", "-out", dir.path("k.pem")])
        let key = try PrivateKey(pem: String(decoding: try dir.read("k.pem"), as: UTF8.self))
        #expect(key.keyType == .rsa(bits: 2048))
        let sig = try key.sign(Array("m".utf8), algorithm: .ps256)
        #expect(key.publicKey.verify(signature: sig, message: Array("m".utf8), algorithm: .ps256))
        #expect(!key.publicKey.verify(signature: sig, message: Array("n".utf8), algorithm: .ps256))
    }
}
