import Ground

/// An ingredient assertion: `c2pa.ingredient` (v1), `c2pa.ingredient.v2`, `c2pa.ingredient.v3`
/// (an instance suffix `__N` may follow). Only the fields validation needs are read.
///
///     v1 = { dc:title, dc:format, instanceID, relationship, ? c2pa_manifest: hashed-uri,
///            ? validationStatus: [* status-map], … }
///     v2 = { dc:title, dc:format, relationship, ? c2pa_manifest: hashed-uri, ? validationStatus, … }
///     v3 = { relationship, ? activeManifest: hashed-uri, ? claimSignature: hashed-uri,
///            ? validationResults: { activeManifest: status-codes, ? ingredientDeltas: [*
///              { ingredientAssertionURI, validationDeltas: status-codes }] }, … }
///     status-codes = { success: [* status-map], informational: [* status-map], failure: [* status-map] }
///     status-map   = { code: tstr, ? url: tstr, ? explanation: tstr }
///
/// Fields are required per version as c2pa-rs requires them; a present optional field of the
/// wrong type is an error here (c2pa-rs ignores it), so a damaged reference is never read as
/// "no reference".
public struct IngredientAssertion: Sendable, Equatable {
    public enum Relationship: String, Sendable { case parentOf, componentOf, inputTo }

    /// A validation status the ingredient's claim generator recorded when it added the ingredient.
    public struct RecordedStatus: Sendable, Hashable {
        public var code: String
        public var url: String?
        public init(code: String, url: String?) {
            self.code = code
            self.url = url
        }
    }

    public let version: Int
    public let relationship: Relationship
    public let title: String?
    /// v1/v2 `c2pa_manifest`.
    public let c2paManifest: HashedURI?
    /// v3 `activeManifest`.
    public let activeManifest: HashedURI?
    /// v3 `claimSignature`: the ingredient manifest's signature box.
    public let claimSignature: HashedURI?
    /// Whether v3 `validationResults` is present.
    public let hasValidationResults: Bool
    /// Every status recorded in `validationResults` (active manifest and deltas) or the v1/v2
    /// `validationStatus` array, in order.
    public let recordedStatuses: [RecordedStatus]

    /// The reference to the ingredient's manifest: `activeManifest` (v3), else `c2pa_manifest`.
    public var manifestReference: HashedURI? { activeManifest ?? c2paManifest }

    /// The version an assertion label names, nil when it is no ingredient label.
    public static func version(ofLabel label: String) -> Int? {
        var base = Substring(label)
        if let r = base.range(of: "__") { base = base[..<r.lowerBound] } // instance suffix
        if base == "c2pa.ingredient" { return 1 }
        guard base.hasPrefix("c2pa.ingredient.v"), let v = Int(base.dropFirst("c2pa.ingredient.v".count)), v > 0 else {
            return nil
        }
        return v
    }

    public init(label: String, cbor c: CBOR) throws(IngredientError) {
        guard let version = Self.version(ofLabel: label) else { throw .notAnIngredient(label) }
        guard (1...3).contains(version) else { throw .unsupportedVersion(version) }
        guard c.mapValue != nil else { throw .notAMap }
        self.version = version
        func text(_ key: String, required: Bool) throws(IngredientError) -> String? {
            guard let v = c[key] else {
                if required { throw .missingField(key) }
                return nil
            }
            guard let s = v.textValue else { throw .badField(key) }
            return s
        }
        func uri(_ key: String) throws(IngredientError) -> HashedURI? {
            guard let v = c[key] else { return nil }
            guard let u = HashedURI(cbor: v) else { throw .badField(key) }
            return u
        }
        title = try text("dc:title", required: version < 3)
        _ = try text("dc:format", required: version < 3)
        _ = try text("instanceID", required: version == 1)
        guard let rel = try text("relationship", required: true) else { throw .missingField("relationship") }
        guard let relationship = Relationship(rawValue: rel) else { throw .badField("relationship") }
        self.relationship = relationship
        if version < 3 {
            c2paManifest = try uri("c2pa_manifest")
            activeManifest = nil
            claimSignature = nil
            hasValidationResults = false
            recordedStatuses = try Self.statuses(c["validationStatus"], field: "validationStatus")
        } else {
            c2paManifest = nil
            activeManifest = try uri("activeManifest")
            claimSignature = try uri("claimSignature")
            let results = c["validationResults"]
            hasValidationResults = results != nil
            recordedStatuses = try Self.recorded(results)
        }
    }

    /// `validationResults`: its active manifest's codes, then every delta's.
    static func recorded(_ results: CBOR?) throws(IngredientError) -> [RecordedStatus] {
        guard let results else { return [] }
        guard results.mapValue != nil else { throw .badField("validationResults") }
        var out: [RecordedStatus] = []
        if let am = results["activeManifest"] { out += try codes(am) }
        if let deltas = results["ingredientDeltas"] {
            guard let a = deltas.arrayValue else { throw .badField("validationResults") }
            for d in a {
                guard let v = d["validationDeltas"] else { throw .badField("validationResults") }
                out += try codes(v)
            }
        }
        return out
    }

    /// A status-codes map: `success`, `informational`, `failure` lists.
    static func codes(_ m: CBOR) throws(IngredientError) -> [RecordedStatus] {
        guard m.mapValue != nil else { throw .badField("validationResults") }
        var out: [RecordedStatus] = []
        for list in ["success", "informational", "failure"] {
            out += try statuses(m[list], field: "validationResults")
        }
        return out
    }

    static func statuses(_ v: CBOR?, field: String) throws(IngredientError) -> [RecordedStatus] {
        guard let v else { return [] }
        guard let a = v.arrayValue else { throw .badField(field) }
        var out: [RecordedStatus] = []
        for item in a {
            guard let code = item["code"]?.textValue else { throw .badField(field) }
            let url = item["url"]
            guard url == nil || url?.textValue != nil else { throw .badField(field) }
            out.append(RecordedStatus(code: code, url: url?.textValue))
        }
        return out
    }
}

/// Why an ingredient assertion could not be read. `code` is stable.
public enum IngredientError: Error, Equatable, Sendable {
    case notAnIngredient(String)
    case unsupportedVersion(Int)
    case notAMap
    case missingField(String)
    case badField(String)

    public var code: String {
        switch self {
        case .notAnIngredient: StatusCode.ingredientNotAnIngredient
        case .unsupportedVersion: StatusCode.ingredientUnsupportedVersion
        case .notAMap: StatusCode.ingredientNotAMap
        case .missingField: StatusCode.ingredientMissingField
        case .badField: StatusCode.ingredientBadField
        }
    }
}
