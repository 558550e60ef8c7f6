import Crypto
import Ground

/// Why `commitContext` refused a claim set. Each names the claim at fault.
public enum CommitError: Error, Equatable, Sendable {
    case invalidSeed(length: Int)
    case unknownClaim(String)
    case rungMismatch(claimId: String, expected: UInt32, got: UInt32)
    case duplicateClaim(String)
    case committedAndDeclared(String)
    case undeclaredClaim(String)
    case notCommitted(String)
    case kdf(OpenSSLError)

    public var code: String {
        switch self {
        case .invalidSeed: StatusCode.commitInvalidSeed
        case .unknownClaim: StatusCode.commitUnknownClaim
        case .rungMismatch: StatusCode.commitRungMismatch
        case .duplicateClaim: StatusCode.commitDuplicateClaim
        case .committedAndDeclared: StatusCode.commitCommittedAndDeclared
        case .undeclaredClaim: StatusCode.commitUndeclaredClaim
        case .notCommitted: StatusCode.commitNotCommitted
        case .kdf: StatusCode.commitKdf
        }
    }
}

/// The writer side of selective disclosure: what `commitContext` returns. No salts are kept;
/// `openSubset` re-derives them from the master seed.
public struct ContextCommitment: Sendable, Equatable {
    public let root: ContentID
    public let tree: MerkleTree
    /// The never-recorded declarations, sorted by claimId.
    public let inventory: [InventoryEntry]

    /// The signed `camera.contextTree` assertion for this commitment.
    public var assertion: ContextTreeAssertion {
        ContextTreeAssertion(root: root, treeSize: tree.size, inventory: inventory)
    }

    /// Commits `claims` and declares `neverRecorded` ladder claims (by claimId).
    ///
    /// Every ladder claim must be either committed or declared; free-form `context.*` claims
    /// may be committed or declared. Leaf 0 is the inventory meta-leaf; claims follow sorted by
    /// claimId bytewise.
    public static func commit(claims: [ContextClaim], masterSeed: [UInt8], neverRecorded: [String]) throws(CommitError) -> ContextCommitment {
        guard masterSeed.count == 32 else { throw .invalidSeed(length: masterSeed.count) }
        var seen = Set<String>()
        for c in claims {
            guard let r = ClaimSchema.rung(for: c.claimId) else { throw .unknownClaim(c.claimId) }
            guard r == c.rung else { throw .rungMismatch(claimId: c.claimId, expected: r, got: c.rung) }
            guard seen.insert(c.claimId).inserted else { throw .duplicateClaim(c.claimId) }
        }
        var declared = Set<String>()
        var inventory: [InventoryEntry] = []
        for id in neverRecorded {
            guard let r = ClaimSchema.rung(for: id) else { throw .unknownClaim(id) }
            guard !seen.contains(id) else { throw .committedAndDeclared(id) }
            guard declared.insert(id).inserted else { throw .duplicateClaim(id) }
            inventory.append(InventoryEntry(claimId: id, rung: r))
        }
        for e in ClaimSchema.expected where !seen.contains(e.claimId) && !declared.contains(e.claimId) {
            throw .undeclaredClaim(e.claimId)
        }
        inventory.sort { utf8Precedes($0.claimId, $1.claimId) }
        var leaves = [DisclosureLeaf.metaLeaf(inventory)]
        for c in sortedClaims(claims) {
            let salt: [UInt8]
            do { salt = try DisclosureLeaf.salt(masterSeed: masterSeed, claimId: c.claimId, rung: c.rung) } catch { throw .kdf(error) }
            leaves.append(DisclosureLeaf.leaf(c, salt: salt))
        }
        let tree = MerkleTree(leaves: leaves)
        return ContextCommitment(root: tree.root, tree: tree, inventory: inventory)
    }

    static func sortedClaims(_ claims: [ContextClaim]) -> [ContextClaim] {
        claims.sorted { utf8Precedes($0.claimId, $1.claimId) }
    }

    /// The claim ids a profile opens from the committed `claims`.
    public static func selection(_ profile: DisclosureProfile, committed: [ContextClaim], customClaimIds: [String]) -> Set<String> {
        let ids = Set(committed.map(\.claimId))
        switch profile {
        case .sealed: return []
        case .short: return ids.intersection(ClaimSchema.shortProfile)
        case .full: return ids
        case .custom: return ids.intersection(customClaimIds)
        }
    }

    /// Opens the profile's selection of `claims` (the same claims that were committed) into a
    /// bundle, re-deriving each opened salt from `masterSeed`.
    public func openSubset(_ profile: DisclosureProfile, claims: [ContextClaim], masterSeed: [UInt8],
                           customClaimIds: [String] = []) throws(CommitError) -> DisclosureBundle {
        guard masterSeed.count == 32 else { throw .invalidSeed(length: masterSeed.count) }
        let sorted = ContextCommitment.sortedClaims(claims)
        guard sorted.count + 1 == tree.size else { throw .notCommitted("claim count \(sorted.count) ≠ tree size \(tree.size) − 1") }
        let chosen = ContextCommitment.selection(profile, committed: sorted, customClaimIds: customClaimIds)
        var opened: [OpenedClaim] = []
        for (i, c) in sorted.enumerated() where chosen.contains(c.claimId) {
            let salt: [UInt8]
            do { salt = try DisclosureLeaf.salt(masterSeed: masterSeed, claimId: c.claimId, rung: c.rung) } catch { throw .kdf(error) }
            let leaf = DisclosureLeaf.leaf(c, salt: salt)
            guard tree.leaves[i + 1] == leaf, let proof = tree.proof(forLeafAt: i + 1) else { throw .notCommitted(c.claimId) }
            opened.append(OpenedClaim(claimId: c.claimId, rung: c.rung, value: c.value, salt: Hex.encode(salt),
                                      index: i + 1, leaf: leaf.hex, proof: proof.siblings.map(\.hex)))
        }
        let metaProof = tree.proof(forLeafAt: 0)?.siblings.map(\.hex) ?? []
        return DisclosureBundle(profile: profile.rawValue,
                                customClaimIds: profile == .custom ? customClaimIds.sorted(by: utf8Precedes) : nil,
                                root: root.hex, treeSize: tree.size, opened: opened,
                                withheldCount: sorted.count - opened.count,
                                neverRecorded: inventory.map(\.claimId), inventoryEntries: inventory,
                                inventoryProof: metaProof)
    }
}
