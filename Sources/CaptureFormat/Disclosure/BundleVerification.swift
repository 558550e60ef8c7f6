/// One named failure of a bundle check.
public struct BundleFailure: Hashable, Sendable, Codable {
    /// Every failure label verifyBundle can report (docs/capture-format.md §7.6).
    public enum Label: String, Sendable, CaseIterable, Codable {
        case malformedBundle = "malformed-bundle"
        case unsupportedVersion = "unsupported-version"
        case unknownProfile = "unknown-profile"
        case profileMismatch = "profile-mismatch"
        case leafMismatch = "leaf-mismatch"
        case proofInvalid = "proof-invalid"
        case indexMismatch = "index-mismatch"
        case indexOutOfRange = "index-out-of-range"
        case indexReserved = "index-reserved"
        case duplicateClaim = "duplicate-claim"
        case claimSchemaViolation = "claim-schema-violation"
        case treeSizeMismatch = "tree-size-mismatch"
        case withheldCountMismatch = "withheld-count-mismatch"
        case neverRecordedMismatch = "never-recorded-mismatch"
        case inventoryMismatch = "inventory-mismatch"
        case inventoryMetaLeafMismatch = "inventory-meta-leaf-mismatch"
        case rootMismatch = "root-mismatch"
    }

    public var label: Label
    /// The opened claim concerned, when the failure belongs to one leaf.
    public var claimId: String?
    public var detail: String

    public init(_ label: Label, claimId: String? = nil, _ detail: String) {
        self.label = label
        self.claimId = claimId
        self.detail = detail
    }
}

/// The result of one opened leaf.
public struct LeafCheck: Hashable, Sendable, Codable {
    public var claimId: String
    public var rung: UInt32
    public var index: Int
    public var value: String
    public var failures: [BundleFailure.Label]
    public var verified: Bool { failures.isEmpty }
}

/// What verifyBundle found: per-leaf results and every named failure. Never a verdict about
/// the capture.
public struct BundleVerification: Hashable, Sendable, Codable {
    public var profile: String
    public var leaves: [LeafCheck]
    public var failures: [BundleFailure]
    public var withheldCount: Int
    public var neverRecorded: [String]

    public var isValid: Bool { failures.isEmpty }
    /// The distinct failure labels, in first-seen order.
    public var labels: [BundleFailure.Label] {
        var seen = Set<BundleFailure.Label>()
        return failures.map(\.label).filter { seen.insert($0).inserted }
    }
    /// `verified` or `failed`: the report's `result` field.
    public var result: String { isValid ? "verified" : "failed" }

    /// The result for a file that is not a bundle at all.
    public static func malformed(_ detail: String) -> BundleVerification {
        BundleVerification(profile: "", leaves: [], failures: [BundleFailure(.malformedBundle, detail)],
                           withheldCount: 0, neverRecorded: [])
    }
}
