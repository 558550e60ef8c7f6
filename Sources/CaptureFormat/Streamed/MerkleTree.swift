import Ground

/// The binary Merkle tree shared by the streamed-chunk commitment and selective disclosure.
///
/// Leaves are raw 32-byte digests in the order given. Each level pairs neighbours
/// (0,1), (2,3), …; parent = SHA-256(left ‖ right); a last odd node is promoted unchanged to
/// the next level. The root of an empty tree is SHA-256 of the empty input.
public struct MerkleTree: Sendable, Equatable {
    /// levels[0] are the leaves; the last level holds the root alone (absent for an empty tree).
    public let levels: [[ContentID]]

    public init(leaves: [ContentID]) {
        var levels = [leaves]
        var current = leaves
        while current.count > 1 {
            var next: [ContentID] = []
            next.reserveCapacity((current.count + 1) / 2)
            var i = 0
            while i < current.count {
                if i + 1 < current.count {
                    next.append(MerkleTree.parent(current[i], current[i + 1]))
                } else {
                    next.append(current[i])
                }
                i += 2
            }
            levels.append(next)
            current = next
        }
        self.levels = levels
    }

    public var leaves: [ContentID] { levels[0] }
    public var size: Int { levels[0].count }

    public var root: ContentID {
        guard let top = levels.last, top.count == 1 else { return MerkleTree.emptyRoot }
        return top[0]
    }

    public static let emptyRoot = ContentID.sha256(of: [UInt8]())

    public static func parent(_ left: ContentID, _ right: ContentID) -> ContentID {
        ContentID.sha256(left, right)
    }

    /// The inclusion proof of the leaf at `index`, or nil when out of range.
    public func proof(forLeafAt index: Int) -> MerkleProof? {
        guard index >= 0, index < size else { return nil }
        var siblings: [ContentID] = []
        var i = index
        for level in levels.dropLast() {
            let n = level.count
            if !(i == n - 1 && n % 2 == 1) { siblings.append(level[i ^ 1]) }
            i /= 2
        }
        return MerkleProof(index: index, treeSize: size, siblings: siblings)
    }
}

/// A positional inclusion proof: the sibling digests from the leaf level upward, skipping
/// levels where the node was promoted. Index and tree size decide each step's side, so a proof
/// presented for another index or tree size fails.
public struct MerkleProof: Sendable, Equatable {
    public var index: Int
    public var treeSize: Int
    public var siblings: [ContentID]

    public init(index: Int, treeSize: Int, siblings: [ContentID]) {
        self.index = index
        self.treeSize = treeSize
        self.siblings = siblings
    }

    /// The root this proof yields for `leaf`, or nil when the proof's shape does not fit the
    /// index and tree size (too few or too many siblings, index out of range).
    public func root(forLeaf leaf: ContentID) -> ContentID? {
        guard treeSize > 0, index >= 0, index < treeSize else { return nil }
        var node = leaf
        var i = index
        var n = treeSize
        var used = 0
        while n > 1 {
            if i == n - 1 && n % 2 == 1 {
                // promoted unchanged
            } else {
                guard used < siblings.count else { return nil }
                let s = siblings[used]
                used += 1
                node = i % 2 == 0 ? MerkleTree.parent(node, s) : MerkleTree.parent(s, node)
            }
            i /= 2
            n = (n + 1) / 2
        }
        guard used == siblings.count else { return nil }
        return node
    }

    public func verifies(leaf: ContentID, root: ContentID) -> Bool {
        self.root(forLeaf: leaf) == root
    }
}
