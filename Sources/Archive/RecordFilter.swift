import Ground

/// What a `RecordStore` query selects (LMDB's `RecordIndex`, `PostgresRecordStore`). Every
/// non-nil field is one filter; filters combine with AND. Values are compared exactly except `keyPrefix`, `timePrefix` and `ingestPrefix`, which
/// match by prefix.
public struct RecordFilter: Sendable, Equatable {
    /// A signing-key fingerprint or a prefix of one (lowercase hex).
    public var keyPrefix: String?
    /// A capture-time prefix such as `2026-11-30T14`. Records whose time is known at that
    /// precision or finer and starts with it match; records known only at a coarser rung that
    /// the prefix continues (say only `2026-11-30`) are `indeterminate`.
    public var timePrefix: String?
    /// `intact`, `tampered`, `unsigned`, `malformed`.
    public var integrity: Integrity?
    /// A sidecar state (`uncommitted`, `mismatch`, …): some sink (or `sink`, when given) is in it.
    public var sidecarState: SidecarState?
    /// A sink: with `sidecarState`, that sink is in that state; alone, the record has it.
    public var sink: SidecarSink?
    /// `still`, `video`, `unknown`.
    public var kind: MediaKind?
    /// `trusted`, `untrusted`.
    public var trust: Trust?
    /// An ingest-time prefix (ISO 8601 UTC, e.g. `2026-12-01`).
    public var ingestPrefix: String?
    /// `pending`, `done`: the record's media analyses are in that state (records made with
    /// `--no-media` or before analyses had a state match neither).
    public var analyses: AnalysisState?

    public init(keyPrefix: String? = nil, timePrefix: String? = nil, integrity: Integrity? = nil,
                sidecarState: SidecarState? = nil, sink: SidecarSink? = nil, kind: MediaKind? = nil, trust: Trust? = nil,
                ingestPrefix: String? = nil, analyses: AnalysisState? = nil) {
        self.keyPrefix = keyPrefix
        self.timePrefix = timePrefix
        self.integrity = integrity
        self.sidecarState = sidecarState
        self.sink = sink
        self.kind = kind
        self.trust = trust
        self.ingestPrefix = ingestPrefix
        self.analyses = analyses
    }
}

/// Records a filter selects: `matches`, and apart from them the records whose capture time is
/// known only more coarsely than `timePrefix` asks (neither included nor dropped). IDs in
/// ascending order.
public struct QueryResult: Sendable, Equatable {
    public var matches: [ContentID]
    public var indeterminate: [ContentID]

    public init(matches: [ContentID], indeterminate: [ContentID]) {
        self.matches = matches
        self.indeterminate = indeterminate
    }
}

/// How many records a filter selects (see `QueryResult`).
public struct QueryCount: Sendable, Equatable {
    public var matches: Int
    public var indeterminate: Int

    public init(matches: Int, indeterminate: Int) {
        self.matches = matches
        self.indeterminate = indeterminate
    }
}
