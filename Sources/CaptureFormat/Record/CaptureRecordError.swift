import C2PA
import Ground

/// Why a record assertion could not be read. `field` is the dotted path of the offending key.
public enum CaptureRecordError: Error, Equatable, Sendable, CustomStringConvertible {
    case cbor(CBORError)
    case missingKey(field: String)
    case wrongType(field: String, expected: String)
    case invalidValue(field: String, reason: String)
    case duplicateKey(field: String)
    case unsupportedVersion(Int)

    public var code: String {
        switch self {
        case .cbor(let e): e.code(in: .record)
        case .missingKey: StatusCode.recordMissingKey
        case .wrongType: StatusCode.recordWrongType
        case .invalidValue: StatusCode.recordInvalidValue
        case .duplicateKey: StatusCode.recordDuplicateKey
        case .unsupportedVersion: StatusCode.recordUnsupportedVersion
        }
    }

    public var description: String {
        switch self {
        case .cbor(let e): "\(code): \(e)"
        case .missingKey(let f): "\(code): \(f)"
        case .wrongType(let f, let t): "\(code): \(f) is not \(t)"
        case .invalidValue(let f, let r): "\(code): \(f): \(r)"
        case .duplicateKey(let f): "\(code): \(f)"
        case .unsupportedVersion(let v): "\(code): recordVersion \(v)"
        }
    }
}

/// A text-keyed CBOR map under a dotted path, with typed accessors that throw named errors.
/// Duplicate keys are rejected; unknown keys are ignored (forward compatibility).
struct FieldMap {
    let path: String
    private let pairs: [String: CBOR]

    init(_ item: CBOR, path: String) throws(CaptureRecordError) {
        guard case .map(let raw) = item else { throw .wrongType(field: path.isEmpty ? "(record)" : path, expected: "map") }
        var d: [String: CBOR] = [:]
        for p in raw {
            guard case .text(let k) = p.key else { throw .wrongType(field: path + ".(key)", expected: "text key") }
            guard d[k] == nil else { throw .duplicateKey(field: name(k, in: path)) }
            d[k] = p.value
        }
        self.path = path
        self.pairs = d
    }

    func field(_ k: String) -> String { name(k, in: path) }

    func has(_ k: String) -> Bool { pairs[k] != nil }

    func raw(_ k: String) throws(CaptureRecordError) -> CBOR {
        guard let v = pairs[k] else { throw .missingKey(field: field(k)) }
        return v
    }

    func optionalRaw(_ k: String) -> CBOR? { pairs[k] }

    func text(_ k: String) throws(CaptureRecordError) -> String {
        guard let s = try raw(k).textValue else { throw .wrongType(field: field(k), expected: "text") }
        return s
    }

    func optionalText(_ k: String) throws(CaptureRecordError) -> String? {
        guard has(k) else { return nil }
        return try text(k)
    }

    func int(_ k: String) throws(CaptureRecordError) -> Int {
        guard let v = try raw(k).intValue else { throw .wrongType(field: field(k), expected: "integer") }
        return v
    }

    func nonNegativeInt(_ k: String) throws(CaptureRecordError) -> Int {
        let v = try int(k)
        guard v >= 0 else { throw .invalidValue(field: field(k), reason: "negative") }
        return v
    }

    func double(_ k: String) throws(CaptureRecordError) -> Double {
        guard let v = try raw(k).doubleValue, v.isFinite else { throw .wrongType(field: field(k), expected: "finite number") }
        return v
    }

    func optionalDouble(_ k: String) throws(CaptureRecordError) -> Double? {
        guard has(k) else { return nil }
        return try double(k)
    }

    func map(_ k: String) throws(CaptureRecordError) -> FieldMap {
        try FieldMap(try raw(k), path: field(k))
    }

    func optionalMap(_ k: String) throws(CaptureRecordError) -> FieldMap? {
        guard has(k) else { return nil }
        return try map(k)
    }

    func digest(_ k: String) throws(CaptureRecordError) -> ContentID {
        let s = try text(k)
        guard let d = ContentID(hex: s) else { throw .invalidValue(field: field(k), reason: "not 64 lowercase hex digits") }
        return d
    }

    func optionalDigest(_ k: String) throws(CaptureRecordError) -> ContentID? {
        guard has(k) else { return nil }
        return try digest(k)
    }
}

private func name(_ k: String, in path: String) -> String { path.isEmpty ? k : path + "." + k }
