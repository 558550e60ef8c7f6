import Ground

extension DisclosureBundle {
    /// Largest tree a verifier accepts (far above the schema's 17 ladder claims plus free-form ones).
    public static let maximumTreeSize = 1 << 16

    /// verifyBundle against the signed `camera.contextTree` assertion (the verifier's normal call).
    public func verify(against assertion: ContextTreeAssertion) -> BundleVerification {
        verify(expectedRoot: assertion.root, committedTreeSize: assertion.treeSize, committedInventory: assertion.inventory)
    }

    /// verifyBundle: recomputes every opened leaf from claim and salt and checks its proof,
    /// recomputes the inventory meta-leaf and checks it at index 0, recomputes the profile's
    /// selection, and cross-checks the accounting. Values given from the signed assertion take
    /// precedence over the bundle's own copies, so one wrong field does not poison the rest.
    public func verify(expectedRoot: ContentID? = nil, committedTreeSize: Int? = nil,
                       committedInventory: [InventoryEntry]? = nil) -> BundleVerification {
        var failures: [BundleFailure] = []
        func fail(_ l: BundleFailure.Label, _ detail: String, claimId: String? = nil) {
            failures.append(BundleFailure(l, claimId: claimId, detail))
        }
        if version != DisclosureBundle.currentVersion { fail(.unsupportedVersion, "version \(version)") }

        // Root and tree size: the signed values win.
        let bundleRoot = ContentID(hex: root)
        if bundleRoot == nil { fail(.malformedBundle, "root is not 64 lowercase hex digits") }
        if let e = expectedRoot, let b = bundleRoot, e != b { fail(.rootMismatch, "bundle root \(b.hex) ≠ signed root \(e.hex)") }
        let trustedRoot = expectedRoot ?? bundleRoot
        if let c = committedTreeSize, c != treeSize { fail(.treeSizeMismatch, "bundle treeSize \(treeSize) ≠ signed \(c)") }
        let size = committedTreeSize ?? treeSize
        // Bounded so that hostile sizes can neither overflow the accounting nor make the
        // index search below run long.
        let sizeUsable = (1...DisclosureBundle.maximumTreeSize).contains(size)
        if !sizeUsable { fail(.treeSizeMismatch, "treeSize \(size) outside 1…\(DisclosureBundle.maximumTreeSize)") }

        // Inventory and the meta-leaf at index 0.
        let bundleIds = inventoryEntries.map(\.claimId)
        if let c = committedInventory, Set(c) != Set(inventoryEntries) || c.count != inventoryEntries.count {
            fail(.inventoryMismatch, "bundle inventory differs from the signed inventory")
        }
        if !sizeUsable {
            // reported above
        } else if let metaProof = digests(inventoryProof) {
            let proof = MerkleProof(index: 0, treeSize: size, siblings: metaProof)
            if trustedRoot == nil || !proof.verifies(leaf: DisclosureLeaf.metaLeaf(inventoryEntries), root: trustedRoot!) {
                fail(.inventoryMetaLeafMismatch, "inventory entries do not hash to the meta-leaf at index 0")
            }
        } else {
            fail(.malformedBundle, "inventoryProof holds a value that is not a digest")
        }
        let trustedInventory = committedInventory.map { $0.map(\.claimId) } ?? bundleIds
        let declared = Set(trustedInventory)
        if neverRecorded.count != Set(neverRecorded).count || Set(neverRecorded) != Set(bundleIds) || Set(neverRecorded) != declared {
            fail(.neverRecordedMismatch, "neverRecorded list ≠ inventory declarations")
        }

        // Leaves, each on its own.
        var leaves: [LeafCheck] = []
        // A repeated index needs no check of its own: only one leaf can verify at an index.
        var seenIds = Set<String>()
        for o in opened {
            var lf: [BundleFailure.Label] = []
            func leafFail(_ l: BundleFailure.Label, _ d: String) { lf.append(l); fail(l, d, claimId: o.claimId) }
            if !seenIds.insert(o.claimId).inserted {
                leafFail(.duplicateClaim, "claim opened twice")
            }
            if ClaimSchema.rung(for: o.claimId) != o.rung || !ClaimSchema.valueConforms(claimId: o.claimId, value: o.value) {
                leafFail(.claimSchemaViolation, "claimId, rung or value shape outside the schema")
            }
            if declared.contains(o.claimId) { leafFail(.neverRecordedMismatch, "opened claim is declared never-recorded") }
            if !sizeUsable {
                leafFail(.treeSizeMismatch, "no usable tree size to check the proof against")
            } else if o.index == 0 {
                leafFail(.indexReserved, "index 0 is the inventory meta-leaf")
            } else if o.index < 0 || o.index >= size {
                leafFail(.indexOutOfRange, "index \(o.index) outside tree of \(size)")
            } else if let salt = saltBytes(o.salt), let sib = digests(o.proof), let carried = ContentID(hex: o.leaf), let r = trustedRoot {
                let recomputed = DisclosureLeaf.leaf(o.claim, salt: salt)
                func verifiesAt(_ i: Int, _ leaf: ContentID) -> Bool {
                    MerkleProof(index: i, treeSize: size, siblings: sib).verifies(leaf: leaf, root: r)
                }
                if verifiesAt(o.index, recomputed) {
                    // verified
                } else if let j = (1..<size).first(where: { $0 != o.index && verifiesAt($0, recomputed) }) {
                    leafFail(.indexMismatch, "proof holds at index \(j), not \(o.index)")
                } else if carried != recomputed {
                    leafFail(.leafMismatch, "leaf recomputed from claim and salt ≠ the committed leaf")
                    if !(1..<size).contains(where: { verifiesAt($0, carried) }) {
                        leafFail(.proofInvalid, "inclusion proof does not reach the root")
                    }
                } else {
                    leafFail(.proofInvalid, "inclusion proof does not reach the root")
                }
            } else {
                leafFail(.malformedBundle, "salt, leaf or proof is not hex of the right length, or no root")
            }
            leaves.append(LeafCheck(claimId: o.claimId, rung: o.rung, index: o.index, value: o.value, failures: lf))
        }

        // Accounting: the tree holds the meta-leaf, the opened and the withheld claims.
        if !sizeUsable {
            // reported above
        } else if withheldCount < 0 || withheldCount != size - 1 - opened.count {
            fail(.withheldCountMismatch, "withheldCount \(withheldCount) ≠ treeSize − 1 − opened = \(size - 1 - opened.count)")
        } else {
            let openedIds = Set(opened.map(\.claimId))
            let unaccounted = ClaimSchema.expected.filter { !openedIds.contains($0.claimId) && !declared.contains($0.claimId) }.count
            if unaccounted > withheldCount {
                fail(.withheldCountMismatch, "\(unaccounted) ladder claims neither opened nor declared, but withheldCount \(withheldCount)")
            }
        }

        // The profile label, recomputed.
        let openedIds = Set(opened.map(\.claimId))
        if let p = DisclosureProfile(rawValue: profile) {
            if p != .custom, customClaimIds != nil { fail(.profileMismatch, "customClaimIds on a \(p.rawValue) bundle") }
            let ladderCommitted = ClaimSchema.ladderClaimIds.subtracting(declared)
            switch p {
            case .sealed:
                if !opened.isEmpty { fail(.profileMismatch, "sealed bundle opens \(opened.count) claims") }
            case .short:
                let expected = ClaimSchema.shortProfile.subtracting(declared)
                if openedIds != expected { fail(.profileMismatch, "short selection differs: opened \(openedIds.sorted())") }
            case .full:
                if withheldCount != 0 || !ladderCommitted.isSubset(of: openedIds) || (sizeUsable && opened.count != size - 1) {
                    fail(.profileMismatch, "full bundle withholds committed claims")
                }
            case .custom:
                if let ids = customClaimIds {
                    let want = Set(ids).subtracting(declared)
                    let ladderWanted = want.intersection(ladderCommitted)
                    if !openedIds.isSubset(of: want) || !ladderWanted.isSubset(of: openedIds) {
                        fail(.profileMismatch, "custom selection differs from customClaimIds")
                    }
                } else {
                    fail(.profileMismatch, "custom bundle without customClaimIds")
                }
            }
        } else {
            fail(.unknownProfile, "profile \"\(profile)\" is not sealed, short, full or custom")
        }
        return BundleVerification(profile: profile, leaves: leaves, failures: failures,
                                  withheldCount: withheldCount, neverRecorded: neverRecorded)
    }

    private func digests(_ hex: [String]) -> [ContentID]? {
        var out: [ContentID] = []
        for h in hex {
            guard let d = ContentID(hex: h) else { return nil }
            out.append(d)
        }
        return out
    }

    private func saltBytes(_ hex: String) -> [UInt8]? { ContentID(hex: hex)?.bytes }
}
