import Crypto
import Ground

/// Update manifests (C2PA 11.2.2): a `c2um` manifest appended to a store that already holds a
/// signed parent. It has no hard binding of its own: the asset's bytes stay bound by the
/// parent's, and the store, re-embedded where it was, grows (a validator widens the parent's
/// data-hash exclusion to the store's new extent). Its one `parentOf` ingredient
/// (`c2pa.ingredient.v3`) references the parent manifest as c2pa-rs writes it: `activeManifest`
/// over the manifest superbox's payload, `claimSignature` over the signature box's, and
/// `validationResults`.
extension ManifestBuilder {
    /// The `c2pa.ingredient.v3` content of a `parentOf` reference to `parent`.
    public static func parentIngredient(to parent: Manifest, title: String? = nil) -> CBOR {
        var pairs: [(String, CBOR)] = []
        if let title { pairs.append(("dc:title", .text(title))) }
        pairs.append(("relationship", .text("parentOf")))
        pairs.append(("activeManifest", HashedURI(url: "\(JUMBFURI.prefix)/c2pa/\(parent.label)", alg: "sha256",
                                                  hash: MessageDigest.sha256(Array(parent.box.hashedBytes))).cbor))
        if let sig = parent.signatureBox {
            pairs.append(("claimSignature", HashedURI(url: JUMBFURI.absolute(manifest: parent.label, path: "c2pa.signature"),
                                                      alg: "sha256", hash: MessageDigest.sha256(Array(sig.hashedBytes))).cbor))
        }
        let empty = CBOR.textMap([("success", .array([])), ("informational", .array([])), ("failure", .array([]))])
        pairs.append(("validationResults", .textMap([("activeManifest", empty)])))
        return .textMap(pairs)
    }

    /// `jpeg`, which holds a store, with an update manifest appended to that store: this
    /// builder's assertions, preceded by a `parentOf` `c2pa.ingredient.v3` to the store's active
    /// manifest when `parentOf` is true; JUMBF type `c2um` (`updateType`, to build a malformed
    /// variant). The store's APP11 segments are rewritten in place, grown.
    public func appendUpdateManifest(to jpeg: [UInt8], parentOf: Bool = true,
                                     updateType: [UInt8] = C2PABoxType.updateManifest) throws(BuildError) -> [UInt8] {
        let lookup: ManifestLookup
        do { lookup = try JPEGContainer.manifest(in: MemoryByteSource(jpeg)) } catch { throw .container(error) }
        guard case .found(let location) = lookup, let store = try? ManifestStore(parsing: location.storeBytes),
              let parent = store.activeManifest else { throw .noParentManifest }
        var all = assertions.map { ($0.label, $0.content) }
        if parentOf { all.insert(("c2pa.ingredient.v3", Self.parentIngredient(to: parent)), at: 0) }
        let update = try manifestNode(type: updateType, assertions: all, signatureSize: nil, placeholder: false)
        let grown = JUMBFNode.box(type: "jumb", payload: Array(store.root.payload) + update.encoded())
        do { return try JPEGContainer.replace(grown, in: jpeg, resizing: true) } catch { throw .container(error) }
    }
}
