import CaptureFormat
import Ground

/// Roots of trees that differ from one base tree only in a run of leaves, recomputing just the
/// nodes above that run: what makes trying thousands of nearby completion orders cheap (a
/// candidate order moves a few audio leaves, so most subtrees equal the base order's).
/// Same shape rules as `MerkleTree` (pairs, odd node promoted); the leaf count must match.
struct MerkleRootUpdate {
    let base: MerkleTree

    init(base leaves: [ContentID]) {
        base = MerkleTree(leaves: leaves)
    }

    /// The root of the tree whose leaves equal the base's except `changed` (the leaves at
    /// `start ..< start + changed.count`).
    func root(replacing changed: ArraySlice<ContentID>, at start: Int) -> ContentID {
        let n = base.size
        guard !changed.isEmpty, start >= 0, start + changed.count <= n else { return base.root }
        if n == 1 { return changed[changed.startIndex] }
        var current = Array(changed)
        var lo = start, hi = start + changed.count - 1
        var level = 0
        while base.levels[level].count > 1 {
            let nodes = base.levels[level]
            let count = nodes.count
            let nlo = lo / 2, nhi = hi / 2
            var next: [ContentID] = []
            next.reserveCapacity(nhi - nlo + 1)
            for i in nlo...nhi {
                let l = 2 * i, r = 2 * i + 1
                let left = l >= lo && l <= hi ? current[l - lo] : nodes[l]
                if r < count {
                    let right = r >= lo && r <= hi ? current[r - lo] : nodes[r]
                    next.append(MerkleTree.parent(left, right))
                } else {
                    next.append(left)
                }
            }
            current = next
            lo = nlo
            hi = nhi
            level += 1
        }
        return current[0]
    }
}
