import Crypto
import Foundation
import Ground

/// The archive's own P-256 signing key and its self-signed certificate, kept in the archive
/// directory as `archive-key.pem` (PKCS#8, mode 0600) and `archive-cert.pem` (mode 0644).
///
/// `init` makes them once; exports sign `custody.json` with the key and ship the certificate in
/// the bag. The certificate only names the key: whoever receives a bag must learn the archive's
/// key fingerprint out of band (a letter, a court filing) to trust it.
public struct ArchiveKey: Sendable {
    public static let keyFile = "archive-key.pem"
    public static let certificateFile = "archive-cert.pem"

    public let privateKey: PrivateKey
    public let certificate: Certificate

    /// Lowercase hex SHA-256 of the public key's SubjectPublicKeyInfo DER.
    public var fingerprint: String { certificate.keyFingerprint.hex }

    public init(privateKey: PrivateKey, certificate: Certificate) {
        self.privateKey = privateKey
        self.certificate = certificate
    }

    /// Loads the key and certificate from `archive`; nil when the archive has no key yet.
    /// Throws `archiveKey` when they exist but do not load or do not match.
    public static func load(archive: String) throws(ExportError) -> ArchiveKey? {
        let keyPath = archive + "/" + keyFile
        let certPath = archive + "/" + certificateFile
        guard FileManager.default.fileExists(atPath: keyPath) else { return nil }
        do {
            let key = try PrivateKey(pem: String(contentsOfFile: keyPath, encoding: .utf8))
            guard let cert = try Certificate.parsePEM(String(contentsOfFile: certPath, encoding: .utf8)).first else {
                throw ExportError.archiveKey("\(certPath): no certificate")
            }
            guard cert.spkiDER == key.publicKey.spkiDER else {
                throw ExportError.archiveKey("\(certPath) does not certify the key in \(keyPath)")
            }
            return ArchiveKey(privateKey: key, certificate: cert)
        } catch let e as ExportError {
            throw e
        } catch {
            throw .archiveKey("cannot load \(keyPath) / \(certPath): \(error)")
        }
    }

    /// Loads the archive's key, creating it first when absent. Returns the key and whether it
    /// was created now.
    public static func loadOrCreate(archive: String, name: String = "Exhibit Archive",
                                    now: Date = Date()) throws(ExportError) -> (key: ArchiveKey, created: Bool) {
        if let key = try load(archive: archive) { return (key, false) }
        let key: PrivateKey
        let cert: Certificate
        do {
            key = try PrivateKey.generate(.p256)
            var serialBytes = [UInt8](repeating: 0, count: 8)
            for i in serialBytes.indices { serialBytes[i] = UInt8.random(in: 0...255) }
            let serial = serialBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x7FFF_FFFF_FFFF_FFFF
            let builder = CertificateBuilder(
                commonName: "\(name) archive key", organization: name, serial: max(serial, 1),
                notBefore: now.addingTimeInterval(-60), notAfter: now.addingTimeInterval(20 * 365.25 * 86400),
                extensions: [.init("basicConstraints", "critical,CA:FALSE"),
                             .init("keyUsage", "critical,digitalSignature"),
                             .init("subjectKeyIdentifier", "hash")])
            cert = try builder.selfSigned(key: key)
        } catch {
            throw .archiveKey("cannot generate the archive key: \(error)")
        }
        let keyPath = archive + "/" + keyFile
        let fd: FileDescriptor
        do { fd = try FileDescriptor.create(keyPath, exclusive: true, permissions: 0o600) } catch {
            throw .archiveKey("cannot create \(keyPath): \(error)")
        }
        let pem = Array(key.pemPKCS8.utf8)
        do {
            try pem.withUnsafeBytes { try fd.write(all: $0) }
            try fd.sync()
        } catch {
            throw .archiveKey("cannot write \(keyPath): \(error)")
        }
        try BagWriter.writeFile(archive + "/" + certificateFile, Array(cert.pem.utf8))
        return (ArchiveKey(privateKey: key, certificate: cert), true)
    }
}
