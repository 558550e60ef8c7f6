import Ground

/// What `RecordStore.audit()` found: every stored record re-hashed — its body and the report
/// the body names — in record-ID order (the record half of the `audit` command).
public struct RecordAudit: Sendable {
    /// Records read.
    public var checked: Int
    /// The records whose stored bytes no longer match (or do not decode), in ID order.
    public var damaged: [RecordDamage]

    public init(checked: Int = 0, damaged: [RecordDamage] = []) {
        self.checked = checked
        self.damaged = damaged
    }
}

/// One damaged record: its ID, the report its body names when the body's header could be
/// read, and the store's error (`index.record.damaged`, whose text names the record).
public struct RecordDamage: Sendable {
    public var recordId: ContentID
    public var reportId: ContentID?
    public var error: any NamedError & Sendable

    public init(recordId: ContentID, reportId: ContentID?, error: any NamedError & Sendable) {
        self.recordId = recordId
        self.reportId = reportId
        self.error = error
    }
}
