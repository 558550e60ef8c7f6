import Crypto
import Foundation

/// The exact bytes an event's hash covers, and the stored form of an event.
///
/// Canonical bytes: a sequence of fields, each `u32 big-endian byte length ‖ UTF-8 bytes`, in
/// this order: `"exhibit-custody/1"`, seq (decimal), time, eventType (PREMIS label), operator,
/// tool name, tool version, host, object count (decimal), then kind and id of each object, outcome,
/// outcomeDetail, prevHash (64 hex). `hash` = SHA-256 of these bytes.
/// Stored value (LMDB `custody.events`, key = seq u64 BE): canonical bytes ‖ 32-byte hash.
extension CustodyEvent {
    static let magic = "exhibit-custody/1"
    /// Upper bound of one event's stored size; anything larger is rejected as malformed.
    static let maxStoredBytes = 16 << 20
    static let maxObjects = 1 << 20

    /// The bytes `hash` is computed over.
    public func canonicalBytes() -> [UInt8] {
        var fields = [Self.magic, String(seq), time, eventType.rawValue, `operator`, tool.name, tool.version, host,
                      String(objects.count)]
        for o in objects { fields += [o.kind, o.id] }
        fields += [outcome.rawValue, outcomeDetail, prevHash]
        var out: [UInt8] = []
        out.reserveCapacity(fields.reduce(0) { $0 + 4 + $1.utf8.count })
        for f in fields {
            let n = UInt32(f.utf8.count)
            out += [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)]
            out += Array(f.utf8)
        }
        return out
    }

    /// SHA-256 of the canonical bytes, lowercase hex.
    public func computedHash() -> String { Hex.encode(MessageDigest.sha256(canonicalBytes())) }

    /// Canonical bytes followed by the stored hash (32 bytes).
    func storedBytes() -> [UInt8] {
        canonicalBytes() + (Hex.decode(hash) ?? [])
    }

    /// Parses a stored value strictly: every length checked, no trailing byte, known terms only.
    init(stored raw: UnsafeRawBufferPointer) throws(CustodyError) {
        guard raw.count >= 32, raw.count <= Self.maxStoredBytes else { throw .malformedEvent("stored size \(raw.count)") }
        var reader = FieldReader(bytes: UnsafeRawBufferPointer(rebasing: raw[0 ..< raw.count - 32]))
        guard try reader.next() == Self.magic else { throw .malformedEvent("not an exhibit-custody/1 event") }
        guard let seq = UInt64(try reader.next()) else { throw .malformedEvent("seq") }
        let time = try reader.next()
        guard let type = EventType(rawValue: try reader.next()) else { throw .malformedEvent("eventType") }
        let op = try reader.next(), toolName = try reader.next(), toolVersion = try reader.next(), host = try reader.next()
        guard let count = Int(try reader.next()), count >= 0, count <= Self.maxObjects else { throw .malformedEvent("object count") }
        var objects: [Object] = []
        for _ in 0..<count { objects.append(Object(kind: try reader.next(), id: try reader.next())) }
        guard let outcome = Outcome(rawValue: try reader.next()) else { throw .malformedEvent("outcome") }
        let detail = try reader.next()
        let prev = try reader.next()
        guard reader.atEnd else { throw .malformedEvent("trailing bytes") }
        self.init(seq: seq, time: time, eventType: type, operator: op, tool: Tool(name: toolName, version: toolVersion),
                  host: host, objects: objects, outcome: outcome, outcomeDetail: detail, prevHash: prev,
                  hash: Hex.encode(Array(raw[raw.count - 32 ..< raw.count])))
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
