import Archive
import ArchiveLMDB
import Query

/// The façade's stores behind the `Archive` target's protocols (issue 14 §1), for code that
/// should not care where records, custody and trust live: the LMDB implementations over this
/// archive's environment today (`records` and `blobs` are stored properties of `Archive`).
extension Archive {
    /// The stored trust anchors as a `TrustAnchorStore`, each change with its custody events.
    public var trustAnchors: any TrustAnchorStore { indexStores?.trust ?? LMDBTrustAnchorStore(trust: trust, custody: custody) }

    /// The custody log as a `CustodyStore`.
    public var custodyStore: any CustodyStore { indexStores?.custody ?? custody }
}
