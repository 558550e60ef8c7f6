import C2PA
import Ground

/// Update manifests (C2PA 11.2.2), as c2pa-rs validates them (sdk/src/store.rs
/// `get_hash_binding_manifest`, `get_store_validation_info`; sdk/src/claim.rs `verify_internal`,
/// `verify_hash_binding`):
///
/// - A manifest is an update manifest when its superbox's JUMBF type is `c2um` (a standard one
///   is `c2ma`); nothing else identifies it.
/// - It carries no hard binding of its own. The asset's bytes are bound by the hard binding of
///   the manifest its `parentOf` ingredient references, followed through further update
///   manifests (cycle-safe, depth-capped) to the first standard manifest that has one. No such
///   manifest: `claim.hardBindings.missing`.
/// - When the active manifest is an update manifest, the store in the file has grown since the
///   parent's `c2pa.hash.data` was computed: the exclusion that starts where the store starts is
///   widened to the store's current extent and later exclusions shift by the growth (JPEG; c2pa-rs
///   does this for data hashes only).
/// - Rules (`manifest.update.invalid` unless said otherwise, the URL the manifest):
///   every action of its actions assertions is one of `c2pa.edited.metadata`, `c2pa.opened`,
///   `c2pa.published`, `c2pa.redacted`; exactly one `parentOf` ingredient (none:
///   `manifest.update.wrongParents`); no hard-binding assertion; no claim thumbnail.
///   A standard manifest with more than one `parentOf` ingredient: `manifest.multipleParents`.
///
/// One rule is stricter than c2pa-rs, which accepts such a file: a hard binding inside an
/// update manifest (c2pa-rs's check for it sits where only a standard manifest reaches, so it
/// never fires). The specification's description of `manifest.update.invalid` names it.
/// A standard manifest without a hard binding of its own is `claim.hardBindings.missing` here;
/// c2pa-rs would follow its `parentOf` ingredient to a parent's binding as for an update
/// manifest, which the specification does not allow a standard manifest.
extension C2PAValidator {
    /// Whether an active update manifest widens its parent's data-hash exclusion to the grown
    /// store: every data-hashed format whose carrier c2pa-rs locates (`HashObjectPositions`),
    /// not BMFF (its own hash) nor PDF (c2pa-rs has no object locations for it).
    static func grownStoreApplies(_ container: String?) -> Bool {
        guard let container, let f = ContainerFormat(rawValue: container) else { return false }
        return f != .bmff && f != .pdf
    }

    static let allowedUpdateActions: Set<String> = ["c2pa.edited.metadata", "c2pa.opened", "c2pa.published", "c2pa.redacted"]

    /// `self#jumbf=/c2pa/<label>`: the URL c2pa-rs gives statuses about a whole manifest.
    static func manifestURI(_ label: String) -> String { "\(JUMBFURI.prefix)/c2pa/\(label)" }

    /// The base label of an assertion label (no `__N` instance suffix).
    static func baseLabel(_ label: String) -> Substring {
        guard let r = label.range(of: "__") else { return Substring(label) }
        return label[..<r.lowerBound]
    }

    /// Whether an assertion label names a hard binding (data, BMFF, general box or collection
    /// hash; multi-part `.part` hashes are not hard bindings of their own).
    static func isHardBinding(_ label: String) -> Bool {
        let base = baseLabel(label)
        guard !base.hasSuffix(".part") else { return false }
        return base == "c2pa.hash.data" || base.hasPrefix("c2pa.hash.bmff") || base == "c2pa.hash.boxes"
            || base == "c2pa.hash.collection.data"
    }

    /// The last label of each assertion a claim references, with the reference.
    static func referencedLabels(_ claim: Claim) -> [(label: String, ref: HashedURI)] {
        claim.assertionReferences.compactMap { ref in
            guard let (_, labels) = JUMBFURI.path(of: ref.url), let last = labels.last else { return nil }
            return (last, ref)
        }
    }

    /// The claim's ingredient assertions in order, nil for one that cannot be read (its own
    /// finding is the ingredient walk's).
    func ingredientAssertions(of claim: Claim, in manifest: Manifest, store: ManifestStore) -> [IngredientAssertion?] {
        Self.referencedLabels(claim).compactMap { label, ref in
            guard IngredientAssertion.version(ofLabel: label) != nil,
                  let box = JUMBFURI.resolve(ref.url, in: store, relativeTo: manifest) else { return nil }
            guard let content = try? Manifest.cborContent(of: box) else { return .some(nil) }
            return .some(try? IngredientAssertion(label: label, cbor: content))
        }
    }

    /// The rules on `parentOf` ingredients and, for an update manifest, on its content.
    /// Returns false when a failure was added.
    func checkManifestKind(claim: Claim, manifest: Manifest, store: ManifestStore, report r: inout C2PAReport) -> Bool {
        let url = Self.manifestURI(manifest.label)
        let parents = ingredientAssertions(of: claim, in: manifest, store: store).filter { $0?.relationship == .parentOf }.count
        guard manifest.kind == .update else {
            guard parents > 1 else { return true }
            r.failure.append(.init(code: StatusCode.manifestMultipleParents, url: url, explanation: "\(parents) parentOf ingredients"))
            return false
        }
        var ok = true
        func invalid(_ why: String, code: String = StatusCode.manifestUpdateInvalid) {
            r.failure.append(.init(code: code, url: url, explanation: "update manifest: \(why)"))
            ok = false
        }
        switch parents {
        case 0: invalid("no parentOf ingredient", code: StatusCode.manifestUpdateWrongParents)
        case 1: break
        default: invalid("\(parents) parentOf ingredients")
        }
        for (label, ref) in Self.referencedLabels(claim) {
            let base = Self.baseLabel(label)
            if Self.isHardBinding(label) { invalid("holds a hard binding (\(label))") }
            if base.hasPrefix("c2pa.thumbnail.claim") { invalid("holds a claim thumbnail (\(label))") }
            guard base == "c2pa.actions" || base == "c2pa.actions.v2",
                  let box = JUMBFURI.resolve(ref.url, in: store, relativeTo: manifest) else { continue }
            guard let names = Self.actionNames(box) else {
                r.failure.append(.init(code: StatusCode.assertionActionMalformed,
                                       url: JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.assertions/\(label)"),
                                       explanation: "actions assertion cannot be read"))
                ok = false
                continue
            }
            for name in names where !Self.allowedUpdateActions.contains(name) { invalid("action \(name) is not allowed") }
        }
        return ok
    }

    /// The `action` of every entry of an actions assertion's `actions` array; nil when unreadable.
    static func actionNames(_ box: JUMBFBox) -> [String]? {
        guard let content = try? Manifest.cborContent(of: box), let actions = content["actions"]?.arrayValue else { return nil }
        var out: [String] = []
        for a in actions {
            guard let name = a["action"]?.textValue else { return nil }
            out.append(name)
        }
        return out
    }

    /// The manifest (and its claim) whose hard binding binds the asset for update manifest
    /// `manifest`: its `parentOf` ingredient's manifest, through further update manifests, to
    /// the first standard manifest with a hard binding. Nil when there is none (an unreadable
    /// ingredient assertion ends the search, as in c2pa-rs).
    func bindingManifest(for manifest: Manifest, claim: Claim, store: ManifestStore) -> (manifest: Manifest, claim: Claim)? {
        var visited: Set<String> = []
        return bindingManifest(for: manifest, claim: claim, store: store, visited: &visited)
    }

    private func bindingManifest(for manifest: Manifest, claim: Claim, store: ManifestStore,
                                 visited: inout Set<String>) -> (manifest: Manifest, claim: Claim)? {
        guard visited.insert(manifest.label).inserted, visited.count <= Self.maximumIngredientDepth else { return nil }
        func hasHardBinding(_ c: Claim) -> Bool { Self.referencedLabels(c).contains { Self.isHardBinding($0.label) } }
        if manifest.kind == .standard, hasHardBinding(claim) { return (manifest, claim) }
        for ingredient in ingredientAssertions(of: claim, in: manifest, store: store) {
            guard let ingredient else { return nil }
            guard ingredient.relationship == .parentOf, let ref = ingredient.manifestReference,
                  let parent = store.manifest(labelled: JUMBFURI.manifestLabel(of: ref.url) ?? ref.url),
                  let claimLabel = parent.claimBox?.label, let bytes = parent.claimBytes,
                  let parentClaim = try? Claim(label: claimLabel, bytes: bytes) else { continue }
            if parent.kind == .update {
                return bindingManifest(for: parent, claim: parentClaim, store: store, visited: &visited)
            }
            if hasHardBinding(parentClaim) { return (parent, parentClaim) }
        }
        return nil
    }

    /// A parent's data-hash exclusions read against a file whose store has grown since (an
    /// update manifest was added): the exclusion starting where the store starts now covers the
    /// whole store, and exclusions after it move by the growth. As c2pa-rs's
    /// `verify_hash_binding`; no exclusion starting there leaves them as they are.
    static func exclusions(_ exclusions: [DataHashAssertion.Exclusion], adjustedTo store: Range<Int64>) -> [DataHashAssertion.Exclusion] {
        let start = UInt64(store.lowerBound), length = UInt64(store.count)
        guard let i = exclusions.firstIndex(where: { $0.start == start }) else { return exclusions }
        let growth = length > exclusions[i].length ? length - exclusions[i].length : 0
        var out = exclusions
        out[i] = .init(start: start, length: length)
        guard start > 0 else { return out }
        for j in out.indices where out[j].start > start {
            let (moved, overflow) = out[j].start.addingReportingOverflow(growth)
            out[j].start = overflow ? UInt64.max : moved
        }
        return out
    }
}
