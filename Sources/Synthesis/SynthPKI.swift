import Crypto
import Foundation
import Ground

/// The dump's public-key infrastructure: a CA root → intermediate issuing some device keys, other
/// device keys self-signed (CA:false leaf with AKI), and a separate TSA root → TSA.
///
/// Private keys are derived from the seed (a P-256 scalar = SHA-256 of the seed and the key's
/// name, loaded as a SEC1 key; OpenSSL computes the public point), so key fingerprints repeat
/// for a seed. Certificate signatures are ECDSA with random nonces: the certificate DER does not.
public final class SynthPKI: Sendable {
    public struct Device: Sendable {
        public let name: String
        public let key: PrivateKey
        public let certificate: Certificate
        /// Leaf first; the root is never included.
        public let chain: [Certificate]
        /// `ca` (root → intermediate → leaf) or `self-signed`.
        public let issuance: String
        public let model: String
        public var keyFingerprint: String { certificate.keyFingerprint.hex }
        public var trustedWithSignerRoot: Bool { issuance == "ca" }
    }

    public let root: Certificate
    public let intermediate: Certificate
    public let devices: [Device]
    public let tsaRoot: Certificate
    public let tsa: TimeStampAuthority

    /// Validity of every certificate: 2026-01-01 … 2036-01-01 (captures are dated Nov 2026).
    static let notBefore = Date(timeIntervalSince1970: 1_767_225_600)
    static let notAfter = Date(timeIntervalSince1970: 2_082_758_400)

    public static let deviceCount = 4

    public init(seed: UInt64, deviceCount: Int = SynthPKI.deviceCount) throws(SynthError) {
        do {
            let rootKey = try SynthPKI.key(seed: seed, name: "ca-root")
            root = try SynthPKI.builder("Exhibit Synth Root CA", "Exhibit Synth", 1, CertificateBuilder.rootCAExtensions)
                .selfSigned(key: rootKey)
            let interKey = try SynthPKI.key(seed: seed, name: "ca-intermediate")
            intermediate = try SynthPKI.builder("Exhibit Synth Device CA", "Exhibit Synth", 2, CertificateBuilder.intermediateCAExtensions)
                .issued(publicKey: interKey.publicKey, issuer: root, issuerKey: rootKey)
            let models = ["iPhone16,1", "iPhone15,3", "iPhone17,2", "iPhone14,5"]
            var devs: [Device] = []
            for i in 0..<max(3, deviceCount) {
                let k = try SynthPKI.key(seed: seed, name: "device-\(i)")
                let name = "device-\(i)"
                // Devices 0, 1 (and every later even one) are CA-issued; device 2 and odd ones from 3 self-signed.
                let underCA = i < 2 || (i > 2 && i % 2 == 0)
                let b = SynthPKI.builder("Exhibit Capture \(name)", "Exhibit Devices", UInt64(100 + i), CertificateBuilder.c2paSignerExtensions)
                let cert = underCA ? try b.issued(publicKey: k.publicKey, issuer: intermediate, issuerKey: interKey) : try b.selfSigned(key: k)
                devs.append(Device(name: name, key: k, certificate: cert, chain: underCA ? [cert, intermediate] : [cert],
                                   issuance: underCA ? "ca" : "self-signed", model: models[i % models.count]))
            }
            devices = devs
            let tsaRootKey = try SynthPKI.key(seed: seed, name: "tsa-root")
            tsaRoot = try SynthPKI.builder("Exhibit Synth TSA Root", "Exhibit Synth", 3, CertificateBuilder.rootCAExtensions)
                .selfSigned(key: tsaRootKey)
            let tsaKey = try SynthPKI.key(seed: seed, name: "tsa")
            let tsaCert = try SynthPKI.builder("Exhibit Synth TSA", "Exhibit Synth", 4, CertificateBuilder.timeStampingExtensions)
                .issued(publicKey: tsaKey.publicKey, issuer: tsaRoot, issuerKey: tsaRootKey)
            tsa = TimeStampAuthority(certificate: tsaCert, key: tsaKey)
        } catch let e as SynthError {
            throw e
        } catch {
            throw SynthError(StatusCode.synthCrypto, "\(error)")
        }
    }

    static func builder(_ cn: String, _ org: String, _ serial: UInt64, _ ext: [CertificateBuilder.Extension]) -> CertificateBuilder {
        CertificateBuilder(commonName: cn, organization: org, country: "DE", serial: serial, notBefore: notBefore,
                           notAfter: notAfter, extensions: ext)
    }

    /// A P-256 key whose scalar is SHA-256("exhibit-synth-key" ‖ seed ‖ name), re-hashed in the
    /// (≈2⁻³²) case it is not below the group order.
    static func key(seed: UInt64, name: String) throws -> PrivateKey {
        var r = SeededRandom(seed: seed, stream: "key/" + name)
        var d = MessageDigest.sha256(r.bytes(32) + Array(name.utf8))
        for _ in 0..<8 {
            if let k = try? PrivateKey(pem: sec1PEM(scalar: d)) { return k }
            d = MessageDigest.sha256(d)
        }
        throw SynthError(StatusCode.synthCrypto, "no valid P-256 scalar for \(name)")
    }

    /// SEC1 `ECPrivateKey` (RFC 5915) with the named curve prime256v1 and no public key.
    static func sec1PEM(scalar: [UInt8]) -> String {
        let der: [UInt8] = [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20] + scalar
            + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        let b64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN EC PRIVATE KEY-----\n\(b64)\n-----END EC PRIVATE KEY-----\n"
    }
}
