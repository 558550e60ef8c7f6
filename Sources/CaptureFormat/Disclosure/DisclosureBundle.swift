import Foundation

/// The four selection presets.
public enum DisclosureProfile: String, Sendable, CaseIterable, Codable {
    case sealed, short, full, custom
}

/// One opened claim in a bundle: everything its own verification needs.
public struct OpenedClaim: Hashable, Sendable, Codable {
    public var claimId: String
    public var rung: UInt32
    public var value: String
    /// 32-byte salt, lowercase hex.
    public var salt: String
    /// Leaf index in the tree (≥ 1; 0 is the meta-leaf).
    public var index: Int
    /// The leaf digest the writer computed, lowercase hex (diagnostic: lets the verifier tell a
    /// changed claim/salt from a changed proof).
    public var leaf: String
    /// Sibling digests bottom-up, lowercase hex.
    public var proof: [String]

    public init(claimId: String, rung: UInt32, value: String, salt: String, index: Int, leaf: String, proof: [String]) {
        self.claimId = claimId
        self.rung = rung
        self.value = value
        self.salt = salt
        self.index = index
        self.leaf = leaf
        self.proof = proof
    }

    public var claim: ContextClaim { ContextClaim(claimId: claimId, rung: rung, value: value) }
}

/// A disclosure bundle file (`*.bundle.json`). See docs/capture-format.md §7.
public struct DisclosureBundle: Hashable, Sendable, Codable {
    public static let currentVersion = 1

    public var version: Int
    /// Kept as text so an unknown label reaches verification (`unknown-profile`).
    public var profile: String
    public var customClaimIds: [String]?
    public var root: String
    public var treeSize: Int
    public var opened: [OpenedClaim]
    public var withheldCount: Int
    public var neverRecorded: [String]
    public var inventoryEntries: [InventoryEntry]
    /// Inclusion proof of the meta-leaf at index 0.
    public var inventoryProof: [String]

    public init(version: Int = DisclosureBundle.currentVersion, profile: String, customClaimIds: [String]?, root: String,
                treeSize: Int, opened: [OpenedClaim], withheldCount: Int, neverRecorded: [String],
                inventoryEntries: [InventoryEntry], inventoryProof: [String]) {
        self.version = version
        self.profile = profile
        self.customClaimIds = customClaimIds
        self.root = root
        self.treeSize = treeSize
        self.opened = opened
        self.withheldCount = withheldCount
        self.neverRecorded = neverRecorded
        self.inventoryEntries = inventoryEntries
        self.inventoryProof = inventoryProof
    }

    /// The bundle file's bytes: JSON, keys sorted, two-space indentation, trailing LF.
    public func encodedJSON() -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Encoding plain strings and integers cannot fail.
        var data = (try? enc.encode(self)) ?? Data()
        data.append(0x0a)
        return data
    }

    /// Reads a bundle file. Structural problems are `malformed-bundle`.
    public init(json: Data) throws(BundleDecodingError) {
        guard json.count <= 16 << 20 else { throw BundleDecodingError(detail: "bundle larger than 16 MiB") }
        // The written shape by the strict reader; anything else (and every error text) by JSONDecoder.
        if let b = json.withUnsafeBytes({ DisclosureBundle(strictJSON: $0) }) {
            self = b
            return
        }
        do {
            self = try JSONDecoder().decode(DisclosureBundle.self, from: json)
        } catch {
            throw BundleDecodingError(detail: String(describing: error))
        }
    }
}

/// A bundle file that is not a bundle: label `malformed-bundle`.
public struct BundleDecodingError: Error, Equatable, Sendable {
    public let detail: String
    public var code: String { BundleFailure.Label.malformedBundle.rawValue }
}
