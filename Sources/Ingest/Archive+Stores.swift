import Archive
import Query

/// The façade's stores behind the `Archive` target's protocols (issue 14 §1), for code that
/// should not care where records, custody and trust live: the LMDB implementations over this
/// archive's environment today (`records`, `trustAnchors`; `custody` is a `CustodyStore`
/// itself). Ingestor's commit path and the CLI still use the concrete LMDB stores
/// (`index`, `custody`, `trust`) in their own transactions; a PostgreSQL-backed archive needs
/// them moved to `RecordStore.put(_:custody:)` first (docs/archive.md).
extension Archive {
    /// The record index and custody log as a `RecordStore`: a record and its custody events in
    /// one write transaction.
    public var records: any RecordStore<IndexedRecord> { LMDBRecordStore(index: index, custody: custody) }

    /// The stored trust anchors as a `TrustAnchorStore`, each change with its custody events.
    public var trustAnchors: any TrustAnchorStore { LMDBTrustAnchorStore(trust: trust, custody: custody) }

    /// The custody log as a `CustodyStore`.
    public var custodyStore: any CustodyStore { custody }
}
