import Ground

/// A reader of the one JSON shape bundles are written in, beside Foundation's `JSONDecoder`.
///
/// `JSONDecoder`'s `Codable` walk was half of a bundle's cost at ingest (four bundles per still).
/// This reader accepts only a strict subset of JSON, in which it decodes exactly what
/// `JSONDecoder` decodes: one object holding each known key at most once (no other key), strings
/// without escapes or control characters that are valid UTF-8, integers as `-?(0|[1-9][0-9]*)`
/// within range (no `-0`), `null` only for `customClaimIds`, whitespace only where JSON allows it
/// and nothing after the object. Anything else — including every malformed bundle — gives nil and
/// `init(json:)` falls back to `JSONDecoder`, so the values and the error texts of reports do not
/// change. `StrictBundleJSONTests` compares the two readers on written bundles and mutations.
extension DisclosureBundle {
    init?(strictJSON buffer: UnsafeRawBufferPointer) {
        var r = StrictJSONReader(buffer)
        guard let b = r.bundle(), r.atEnd() else { return nil }
        self = b
    }
}

/// The bundle's shape over the shared cursor (`Ground.StrictJSONReader`).
private extension StrictJSONReader {
    mutating func bundle() -> DisclosureBundle? {
        var version, treeSize, withheldCount: Int?
        var profile, root: String?
        var custom: [String]??
        var opened: [OpenedClaim]?
        var neverRecorded, inventoryProof: [String]?
        var inventory: [InventoryEntry]?
        let ok = object { r, key in
            switch key {
            case "version": return readOnce(&version) { r.int() }
            case "profile": return readOnce(&profile) { r.string() }
            case "root": return readOnce(&root) { r.string() }
            case "treeSize": return readOnce(&treeSize) { r.int() }
            case "withheldCount": return readOnce(&withheldCount) { r.int() }
            case "customClaimIds":
                guard custom == nil else { return false }
                if r.null() { custom = .some(nil); return true }
                guard let ids = r.strings() else { return false }
                custom = .some(ids)
                return true
            case "opened": return readOnce(&opened) { r.array { $0.openedClaim() } }
            case "neverRecorded": return readOnce(&neverRecorded) { r.strings() }
            case "inventoryEntries": return readOnce(&inventory) { r.array { $0.inventoryEntry() } }
            case "inventoryProof": return readOnce(&inventoryProof) { r.strings() }
            default: return false
            }
        }
        guard ok, let version, let profile, let root, let treeSize, let opened, let withheldCount, let neverRecorded,
              let inventory, let inventoryProof else { return nil }
        return DisclosureBundle(version: version, profile: profile, customClaimIds: custom ?? nil, root: root, treeSize: treeSize,
                                opened: opened, withheldCount: withheldCount, neverRecorded: neverRecorded,
                                inventoryEntries: inventory, inventoryProof: inventoryProof)
    }

    mutating func openedClaim() -> OpenedClaim? {
        var claimId, value, salt, leaf: String?
        var rung: UInt32?
        var index: Int?
        var proof: [String]?
        let ok = object { r, key in
            switch key {
            case "claimId": return readOnce(&claimId) { r.string() }
            case "rung": return readOnce(&rung) { r.uint32() }
            case "value": return readOnce(&value) { r.string() }
            case "salt": return readOnce(&salt) { r.string() }
            case "index": return readOnce(&index) { r.int() }
            case "leaf": return readOnce(&leaf) { r.string() }
            case "proof": return readOnce(&proof) { r.strings() }
            default: return false
            }
        }
        guard ok, let claimId, let rung, let value, let salt, let index, let leaf, let proof else { return nil }
        return OpenedClaim(claimId: claimId, rung: rung, value: value, salt: salt, index: index, leaf: leaf, proof: proof)
    }

    mutating func inventoryEntry() -> InventoryEntry? {
        var claimId: String?
        var rung: UInt32?
        let ok = object { r, key in
            switch key {
            case "claimId": return readOnce(&claimId) { r.string() }
            case "rung": return readOnce(&rung) { r.uint32() }
            default: return false
            }
        }
        guard ok, let claimId, let rung else { return nil }
        return InventoryEntry(claimId: claimId, rung: rung)
    }
}
