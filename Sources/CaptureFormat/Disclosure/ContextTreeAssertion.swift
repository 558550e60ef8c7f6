import C2PA
import Ground

/// The `camera.contextTree` assertion: the signed root, tree size and never-recorded inventory.
///
/// CBOR (deterministic): `{"root": text hex, "version": 1, "inventory": [{"rung", "claimId"}…],
/// "treeSize": uint}`.
public struct ContextTreeAssertion: Hashable, Sendable {
    public static let label = "camera.contextTree"
    public var root: ContentID
    public var treeSize: Int
    public var inventory: [InventoryEntry]

    public init(root: ContentID, treeSize: Int, inventory: [InventoryEntry]) {
        self.root = root
        self.treeSize = treeSize
        self.inventory = inventory.sorted { utf8Precedes($0.claimId, $1.claimId) }
    }

    public var cbor: CBOR {
        .textMap([("version", .int(1)), ("root", .text(root.hex)), ("treeSize", .int(treeSize)),
                  ("inventory", .array(inventory.map(\.cbor)))])
    }

    public func encoded() -> [UInt8] { DeterministicCBOR.encode(cbor) }

    public init(decoding bytes: [UInt8]) throws(CaptureRecordError) {
        let item: CBOR
        do { item = try CBOR(decoding: bytes) } catch { throw .cbor(error) }
        let m = try FieldMap(item, path: "")
        let v = try m.int("version")
        guard v == 1 else { throw .unsupportedVersion(v) }
        guard let entries = try m.raw("inventory").arrayValue else { throw .wrongType(field: "inventory", expected: "array") }
        var inv: [InventoryEntry] = []
        for (i, e) in entries.enumerated() {
            let em = try FieldMap(e, path: "inventory[\(i)]")
            let rung = try em.nonNegativeInt("rung")
            guard rung <= Int(UInt32.max) else { throw .invalidValue(field: em.field("rung"), reason: "beyond UInt32") }
            inv.append(InventoryEntry(claimId: try em.text("claimId"), rung: UInt32(rung)))
        }
        let size = try m.nonNegativeInt("treeSize")
        guard size >= 1 else { throw .invalidValue(field: "treeSize", reason: "a context tree holds at least the meta-leaf") }
        self.init(root: try m.digest("root"), treeSize: size, inventory: inv)
    }
}
