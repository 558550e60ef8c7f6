import Ground

extension IndexedRecord {
    /// A second copy of one sink of a known capture: the same delivery file (a known variant)
    /// arrived with this sink's evidence different (another digest, or absent), so the copy
    /// was verified and its state for the sink is kept beside the first copy's. The record's
    /// `sidecars[sink]` is then the most severe state among the first copy and every sidecar
    /// variant (`SidecarState.severity`), and the sidecar index has an entry for every state,
    /// so `query --sidecar mismatch` finds a record whose second copy mismatched.
    public struct SidecarVariant: Codable, Sendable, Equatable {
        public var sink: SidecarSink
        /// The copy's state for the sink (`mismatch`, `missing`, …).
        public var state: SidecarState
        /// SHA-256 of the bytes found for the sink in that copy (stored among the record's
        /// files); nil when no file was found.
        public var actualSha256: ContentID?
        /// The copy's delivery file (`dump-root-name/relative/path`).
        public var sourcePath: String
        public var firstIngested: String
        /// The copy's verification report, kept in the index by this ID (`RecordIndex.report`).
        public var reportId: ContentID? = nil
        public init(sink: SidecarSink, state: SidecarState, actualSha256: ContentID?, sourcePath: String, firstIngested: String) {
            self.sink = sink
            self.state = state
            self.actualSha256 = actualSha256
            self.sourcePath = sourcePath
            self.firstIngested = firstIngested
        }
    }

    /// Names `reportId` as the report of every sidecar variant after the first `count`.
    public mutating func nameReport(_ reportId: ContentID, ofVariantsAfter count: Int) {
        guard var variants = sidecarVariants, count < variants.count else { return }
        for i in count..<variants.count { variants[i].reportId = reportId }
        sidecarVariants = variants
    }

    /// Every state the record holds for each sink: the first copy's (`primary`) and each
    /// sidecar variant's.
    public func sidecarStates(primary: [SidecarSink: SidecarState]) -> [SidecarSink: Set<SidecarState>] {
        var out = primary.mapValues { Set([$0]) }
        for v in sidecarVariants ?? [] { out[v.sink, default: []].insert(v.state) }
        return out
    }

    /// `primary` with each sink raised to the most severe state of its variants.
    public func rolledUpSidecars(primary: [SidecarSink: SidecarState]) -> [SidecarSink: SidecarState] {
        sidecarStates(primary: primary).compactMapValues { states in states.max { $0.severity < $1.severity } }
    }
}

extension IndexedRecord {
    /// The first stored file under each relative path: the first copy of the capture folder
    /// (a sidecar variant's bytes are stored after it under the same path).
    public var primaryFiles: [StoredFile] {
        var seen = Set<String>()
        return files.filter { seen.insert($0.relativePath).inserted }
    }
}
