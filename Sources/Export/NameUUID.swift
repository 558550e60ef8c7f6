import Crypto
import Foundation

/// A name-based UUID (RFC 9562 §5.5, version 5: SHA-1 of namespace ‖ name) made within an
/// export, the same wherever the name is used, so METS.xml, PREMIS.xml and custody.jsonld give
/// a payload file (or an event, an agent) the same identifier, and CASE's "IRIs end in a UUID"
/// holds. The namespace is the bag's own UUID (its `External-Identifier`, `urn:uuid:…`); a
/// scope that is not one is first made a version-5 UUID in the URL namespace.
enum NameUUID {
    /// The RFC 9562 namespace for URLs, `6ba7b811-9dad-11d1-80b4-00c04fd430c8`.
    static let urlNamespace: [UInt8] = [0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]

    static func make(_ scope: String, _ name: String) -> String {
        format(v5(namespace(scope), name))
    }

    static func namespace(_ scope: String) -> [UInt8] {
        let text = scope.hasPrefix("urn:uuid:") ? String(scope.dropFirst(9)) : scope
        if let u = UUID(uuidString: text) { return withUnsafeBytes(of: u.uuid) { Array($0) } }
        return v5(urlNamespace, scope)
    }

    static func v5(_ namespace: [UInt8], _ name: String) -> [UInt8] {
        guard let sha1 = NamedDigest(openSSLName: "SHA1") else { return [UInt8](repeating: 0, count: 16) }
        sha1.update(namespace + Array(name.utf8))
        var b = Array(sha1.finalize().prefix(16))
        b[6] = (b[6] & 0x0F) | 0x50
        b[8] = (b[8] & 0x3F) | 0x80
        return b
    }

    static func format(_ b: [UInt8]) -> String {
        let hex = Hex.encode(b)
        let i = hex.startIndex
        func part(_ from: Int, _ to: Int) -> Substring { hex[hex.index(i, offsetBy: from)..<hex.index(i, offsetBy: to)] }
        return "\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }
}
