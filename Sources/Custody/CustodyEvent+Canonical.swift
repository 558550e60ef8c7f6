import Crypto
import Foundation

/// The exact bytes an event's hash covers, and the stored form of an event.
///
/// Every byte string below is a sequence of fields, each `u32 big-endian byte length ‖ UTF-8
/// bytes` (numbers in decimal ASCII, hashes and the salt in lowercase hex).
///
/// v1 — `canonicalBytes()`, and `hash` = SHA-256 of them:
/// `"exhibit-custody/1"`, seq, time, eventType (PREMIS label), operator, tool name, tool
/// version, host, object count, then kind and id of each object, outcome, outcomeDetail,
/// prevHash.
///
/// v2 — `bodyBytes()`: `"exhibit-custody-body/2"`, salt (32 hex), time, eventType, operator,
/// tool name, tool version, host, object count, kind and id of each object, outcome,
/// outcomeDetail; `bodyHash` = SHA-256 of them. `hashedBytes()`: `"exhibit-custody/2"`, seq,
/// prevHash, bodyHash; `hash` = SHA-256 of them. `canonicalBytes()` (the stored form):
/// `"exhibit-custody/2"`, seq, prevHash, then the body's fields.
///
/// Stored value (LMDB `custody.events`, key = seq u64 BE), both versions: canonical bytes ‖
/// 32-byte hash. The first field says the version.
extension CustodyEvent {
    static let magic = "exhibit-custody/1"
    static let magicV2 = "exhibit-custody/2"
    static let bodyMagicV2 = "exhibit-custody-body/2"
    static let magicV3 = "exhibit-custody/3"
    static let bodyMagicV3 = "exhibit-custody-body/3"
    /// Bytes of a v2 salt.
    public static let saltBytes = 16
    /// Upper bound of one event's stored size; anything larger is rejected as malformed.
    static let maxStoredBytes = 16 << 20
    static let maxObjects = 1 << 20

    /// The fields every version hashes, between the time and the outcome detail (v3: the
    /// organization after the operator).
    private var describingFields: [String] {
        var fields = [time, eventType.rawValue, `operator`]
        if version == .v3 { fields.append(organization ?? "") }
        fields += [tool.name, tool.version, host, String(objects.count)]
        for o in objects { fields += [o.kind, o.id] }
        return fields + [outcome.rawValue, outcomeDetail]
    }

    /// The serialized event: v1, the bytes `hash` is computed over; v2, seq and prevHash
    /// followed by the body (the hash covers them through `hashedBytes()`).
    public func canonicalBytes() -> [UInt8] {
        switch version {
        case .v1: Self.fields([Self.magic, String(seq)] + describingFields + [prevHash])
        case .v2, .v3: Self.fields([Self.magic(version), String(seq), prevHash]) + bodyBytes()
        }
    }

    /// The first field of a stored v2 or v3 event and of its hash input.
    static func magic(_ version: Version) -> String { version == .v3 ? magicV3 : magicV2 }

    /// v2/v3: the salted body whose SHA-256 is `bodyHash` (v1 has no body: its canonical bytes).
    public func bodyBytes() -> [UInt8] {
        Self.fields([version == .v3 ? Self.bodyMagicV3 : Self.bodyMagicV2, salt ?? ""] + describingFields)
    }

    /// v2/v3: SHA-256 of `bodyBytes()`, lowercase hex; nil for a v1 event.
    public func computedBodyHash() -> String? {
        version.isRedactable ? Hex.encode(MessageDigest.sha256(bodyBytes())) : nil
    }

    /// The bytes `hash` is the SHA-256 of.
    public func hashedBytes() -> [UInt8] {
        switch version {
        case .v1: canonicalBytes()
        case .v2, .v3: Self.hashedBytes(version, seq: seq, prevHash: prevHash, bodyHash: computedBodyHash() ?? "")
        }
    }

    /// The v2 hash input of an event known only by seq, prevHash and bodyHash (a redacted one).
    public static func hashedBytesV2(seq: UInt64, prevHash: String, bodyHash: String) -> [UInt8] {
        hashedBytes(.v2, seq: seq, prevHash: prevHash, bodyHash: bodyHash)
    }

    /// The v2 or v3 hash input of an event known only by seq, prevHash and bodyHash.
    public static func hashedBytes(_ version: Version, seq: UInt64, prevHash: String, bodyHash: String) -> [UInt8] {
        fields([magic(version), String(seq), prevHash, bodyHash])
    }

    /// SHA-256 of `hashedBytes()`, lowercase hex.
    public func computedHash() -> String { Hex.encode(MessageDigest.sha256(hashedBytes())) }

    /// Canonical bytes followed by the stored hash (32 bytes).
    public func storedBytes() -> [UInt8] {
        canonicalBytes() + (Hex.decode(hash) ?? [])
    }

    /// `u32 BE length ‖ UTF-8` per field.
    static func fields(_ fields: [String]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(fields.reduce(0) { $0 + 4 + $1.utf8.count })
        for f in fields {
            let n = UInt32(f.utf8.count)
            out += [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)]
            out += Array(f.utf8)
        }
        return out
    }

    /// Parses a stored value strictly: every length checked, no trailing byte, known terms only.
    public init(stored raw: UnsafeRawBufferPointer) throws(CustodyError) {
        guard raw.count >= 32, raw.count <= Self.maxStoredBytes else { throw .malformedEvent("stored size \(raw.count)") }
        var reader = FieldReader(bytes: UnsafeRawBufferPointer(rebasing: raw[0 ..< raw.count - 32]))
        let version: Version
        switch try reader.next() {
        case Self.magic: version = .v1
        case Self.magicV2: version = .v2
        case Self.magicV3: version = .v3
        default: throw .malformedEvent("not an exhibit-custody/1, /2 or /3 event")
        }
        guard let seq = UInt64(try reader.next()) else { throw .malformedEvent("seq") }
        var prev = "", salt: String?
        if version.isRedactable {
            prev = try reader.next()
            let bodyMagic = version == .v3 ? Self.bodyMagicV3 : Self.bodyMagicV2
            guard try reader.next() == bodyMagic else { throw .malformedEvent("not an \(bodyMagic) body") }
            let s = try reader.next()
            guard s.utf8.count == 2 * Self.saltBytes, Hex.decode(s) != nil else { throw .malformedEvent("salt") }
            salt = s
        }
        let time = try reader.next()
        guard let type = EventType(rawValue: try reader.next()) else { throw .malformedEvent("eventType") }
        let op = try reader.next()
        let organization: String? = version == .v3 ? try reader.next() : nil
        let toolName = try reader.next(), toolVersion = try reader.next(), host = try reader.next()
        guard let count = Int(try reader.next()), count >= 0, count <= Self.maxObjects else { throw .malformedEvent("object count") }
        var objects: [Object] = []
        for _ in 0..<count { objects.append(Object(kind: try reader.next(), id: try reader.next())) }
        guard let outcome = Outcome(rawValue: try reader.next()) else { throw .malformedEvent("outcome") }
        let detail = try reader.next()
        if version == .v1 { prev = try reader.next() }
        guard reader.atEnd else { throw .malformedEvent("trailing bytes") }
        self.init(seq: seq, time: time, eventType: type, operator: op, tool: Tool(name: toolName, version: toolVersion),
                  host: host, objects: objects, outcome: outcome, outcomeDetail: detail, prevHash: prev,
                  hash: Hex.encode(Array(raw[raw.count - 32 ..< raw.count])), version: version, salt: salt,
                  organization: organization)
    }
}

/// Reads `u32 BE length ‖ UTF-8` fields without trusting a length.
private struct FieldReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var atEnd: Bool { offset == bytes.count }

    mutating func next() throws(CustodyError) -> String {
        guard bytes.count - offset >= 4 else { throw .malformedEvent("truncated field length") }
        let n = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
        offset += 4
        guard n <= bytes.count - offset else { throw .malformedEvent("field length \(n) beyond the event") }
        let field = UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + n])
        offset += n
        guard let s = String(validating: field, as: UTF8.self) else { throw .malformedEvent("field not UTF-8") }
        return s
    }
}
