import Archive

extension CustodyAppend {
    /// `draft` in the version `store` gives an appended event (a `CustodyLog`'s own writer
    /// version; otherwise v2, or v3 for an agent that states an organization), for a caller that
    /// appends through `RecordStore.put(_:custody:)`.
    public init(_ draft: CustodyDraft, for store: any CustodyStore) throws {
        try self.init(draft, version: (store as? CustodyLog)?.version(for: draft) ?? CustodyStoreVersion.version(for: draft))
    }
}
