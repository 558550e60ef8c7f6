/// A C2PA manifest store: the `c2pa` JUMBF superbox holding one or more manifests. The last
/// manifest is the active one; earlier ones belong to ingredients.
public struct ManifestStore: Sendable {
    public let root: JUMBFBox
    public let manifests: [Manifest]

    /// The manifest the asset's claims are read from (the last one), nil when the store is empty.
    public var activeManifest: Manifest? { manifests.last }

    /// Parses a store from its exact bytes (as a container returned them) and applies
    /// c2pa-rs's load rules (`ManifestStore+LoadRules.swift`).
    public init(parsing bytes: [UInt8]) throws(JUMBFError) {
        let root = try JUMBFBox(parsing: bytes)
        guard root.description?.typeUUID == C2PABoxType.store else { throw .notAManifestStore }
        self.root = root
        self.manifests = root.children.compactMap(Manifest.init(box:))
        try checkLoadRules()
    }

    public func manifest(labelled label: String) -> Manifest? {
        manifests.first { $0.label == label }
    }
}

/// One manifest (`c2ma` standard or `c2um` update) of a store.
public struct Manifest: Sendable {
    public enum Kind: String, Sendable { case standard, update }

    public let box: JUMBFBox
    /// `urn:uuid:…` or `urn:c2pa:…`.
    public let label: String
    public let kind: Kind

    init?(box: JUMBFBox) {
        guard let d = box.description, let label = d.label else { return nil }
        switch d.typeUUID {
        case C2PABoxType.manifest: kind = .standard
        case C2PABoxType.updateManifest: kind = .update
        default: return nil
        }
        self.box = box
        self.label = label
    }

    /// The claim superbox (`c2pa.claim` or `c2pa.claim.v2`, type `c2cl`).
    public var claimBox: JUMBFBox? {
        box.children.first { $0.description?.typeUUID == C2PABoxType.claim }
    }

    /// The claim's CBOR bytes exactly as stored: the signed payload of the claim signature.
    public var claimBytes: ArraySlice<UInt8>? {
        claimBox?.contentBoxes(ofType: "cbor").first?.payload
    }

    public var assertionStore: JUMBFBox? {
        box.children.first { $0.description?.typeUUID == C2PABoxType.assertionStore }
    }

    public var assertions: [JUMBFBox] { assertionStore?.children.filter(\.isSuperbox) ?? [] }

    public var signatureBox: JUMBFBox? {
        box.children.first { $0.description?.typeUUID == C2PABoxType.signature }
    }

    /// The COSE_Sign1 bytes of the claim signature.
    public var signatureBytes: ArraySlice<UInt8>? {
        signatureBox?.contentBoxes(ofType: "cbor").first?.payload
    }

    public var credentialStore: JUMBFBox? {
        box.children.first { $0.description?.typeUUID == C2PABoxType.credentialStore }
    }

    public var databoxes: JUMBFBox? {
        box.children.first { $0.description?.typeUUID == C2PABoxType.databoxes }
    }

    /// The assertion with this label (e.g. `c2pa.hash.data`).
    public func assertion(labelled label: String) -> JUMBFBox? {
        assertions.first { $0.label == label }
    }

    /// The CBOR content of an assertion superbox, decoded.
    public static func cborContent(of assertion: JUMBFBox) throws(CBORError) -> CBOR? {
        guard let b = assertion.contentBoxes(ofType: "cbor").first else { return nil }
        return try CBOR(decoding: b.payload)
    }
}
