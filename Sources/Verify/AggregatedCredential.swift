import C2PA
import Foundation

/// The parts of an identity claims aggregation credential (W3C VC 2.0, JSON) that validation
/// reads, checked for the shape c2pa-rs deserializes (ica_credential.rs, w3c_vc/credential.rs):
/// `@context` and `type` present, `issuer` a string, `credentialSubject` an object or a
/// non-empty array whose first subject has non-empty `verifiedIdentities` (each with `type`,
/// `verifiedAt`, `provider`) and a `c2paAsset` signer payload (hashes base64).
struct AggregatedCredential {
    struct Invalid: Error { var reason: String }

    struct Asset: Equatable {
        var referencedAssertions: [HashedURI]
        var sigType: String
        var roles: [String]
    }

    var issuer: String
    var validFrom: Date?
    var validUntil: Date?
    var asset: Asset

    init(json bytes: [UInt8]) throws(Invalid) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)), let vc = object as? [String: Any] else {
            throw Invalid(reason: "not a JSON object")
        }
        guard vc["@context"] != nil else { throw Invalid(reason: "no @context") }
        guard vc["type"] != nil else { throw Invalid(reason: "no type") }
        guard let issuer = vc["issuer"] as? String else { throw Invalid(reason: "issuer is not a string") }
        self.issuer = issuer
        validFrom = try Self.date(vc["validFrom"], "validFrom")
        validUntil = try Self.date(vc["validUntil"], "validUntil")
        let subject: [String: Any]
        if let one = vc["credentialSubject"] as? [String: Any] {
            subject = one
        } else if let many = vc["credentialSubject"] as? [Any], let first = many.first as? [String: Any] {
            subject = first
        } else {
            throw Invalid(reason: "no credentialSubject")
        }
        guard let identities = subject["verifiedIdentities"] as? [Any], !identities.isEmpty else {
            throw Invalid(reason: "no verifiedIdentities")
        }
        for case let identity as [String: Any] in identities {
            guard let type = identity["type"] as? String, !type.isEmpty else { throw Invalid(reason: "verified identity without type") }
            guard try Self.date(identity["verifiedAt"], "verifiedAt") != nil else { throw Invalid(reason: "verified identity without verifiedAt") }
            guard identity["provider"] is [String: Any] else { throw Invalid(reason: "verified identity without provider") }
        }
        guard identities.allSatisfy({ $0 is [String: Any] }) else { throw Invalid(reason: "a verified identity is not an object") }
        guard let asset = subject["c2paAsset"] as? [String: Any] else { throw Invalid(reason: "no c2paAsset") }
        guard let refs = asset["referenced_assertions"] as? [Any], let sigType = asset["sig_type"] as? String else {
            throw Invalid(reason: "c2paAsset lacks referenced_assertions or sig_type")
        }
        var uris: [HashedURI] = []
        for case let ref as [String: Any] in refs {
            guard let url = ref["url"] as? String, let hash = Self.bytes(ref["hash"]) else { throw Invalid(reason: "bad hashed URI in c2paAsset") }
            // The hash bytes are base64 text (c2pa-rs decodes them; text that is not UTF-8 or
            // not base64 decodes to a marker that never matches).
            let decoded = String(bytes: hash, encoding: .utf8).flatMap { Data(base64Encoded: $0) }.map(Array.init)
                ?? Array("invalid base64".utf8)
            uris.append(HashedURI(url: url, alg: ref["alg"] as? String, hash: decoded))
        }
        guard uris.count == refs.count else { throw Invalid(reason: "a c2paAsset hashed URI is not an object") }
        let roles = asset["role"] as? [String] ?? []
        self.asset = Asset(referencedAssertions: uris, sigType: sigType, roles: roles)
    }

    /// serde_bytes from JSON: an array of byte values, or a string's UTF-8 bytes.
    static func bytes(_ value: Any?) -> [UInt8]? {
        if let text = value as? String { return Array(text.utf8) }
        guard let items = value as? [Any] else { return nil }
        var out: [UInt8] = []
        for item in items {
            guard let n = item as? NSNumber, let b = UInt8(exactly: n.doubleValue) else { return nil }
            out.append(b)
        }
        return out
    }

    /// An RFC 3339 date-time, or nil when absent; any other value is invalid.
    static func date(_ value: Any?, _ field: String) throws(Invalid) -> Date? {
        guard let value else { return nil }
        guard let text = value as? String else { throw Invalid(reason: "\(field) is not a string") }
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let d = plain.date(from: text) ?? fractional.date(from: text) else { throw Invalid(reason: "\(field) is not an RFC 3339 date-time") }
        return d
    }
}

/// `did:<method>:<method-specific-id>[#fragment]`, with c2pa-rs's syntax check
/// (`^did:[a-z0-9]+:[A-Za-z0-9/.%#?_-]+`, prefix match).
struct DecentralizedIdentifier {
    var method: String
    var methodSpecificID: String
    /// The DID without its fragment.
    var primary: String

    init?(_ text: String) {
        let primary = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        let parts = primary.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "did", !parts[1].isEmpty,
              parts[1].allSatisfy({ ($0.isASCII && $0.isLowercase) || $0.isASCII && $0.isNumber }) else { return nil }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/.%#?_-")
        guard let firstChar = parts[2].first, allowed.contains(firstChar) else { return nil }
        method = String(parts[1])
        methodSpecificID = String(parts[2])
        self.primary = primary
    }
}

/// Base64url (RFC 4648 §5).
enum Base64URL {
    /// Padded text as c2pa-rs's `BASE64_URL_SAFE` engine requires (canonical padding).
    static func decode(_ text: String) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        return Data(base64Encoded: text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")).map(Array.init)
    }

    /// Unpadded text (JWK members).
    static func decodeUnpadded(_ text: String) -> [UInt8]? {
        let bare = text.hasSuffix("=") ? String(text.prefix { $0 != "=" }) : text
        let padded = bare + String(repeating: "=", count: (4 - bare.count % 4) % 4)
        return decode(padded)
    }
}
