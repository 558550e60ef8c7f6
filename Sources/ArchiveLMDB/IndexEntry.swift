import Ground
import Query

/// One key of a secondary index: which index, and the key bytes
/// `value 0x00 recordId(32 bytes)` (for the sidecar index `state 0x00 sink 0x00 recordId`).
/// Index values are empty: the key is the whole entry, so a filter is a prefix scan.
struct IndexEntry: Hashable, Sendable {
    enum Index: String, CaseIterable, Sendable {
        case key = "idx.byKey"
        case time = "idx.byTime"
        case integrity = "idx.byIntegrity"
        case trust = "idx.byTrust"
        case kind = "idx.byKind"
        case sidecar = "idx.bySidecar"
        case ingest = "idx.byIngest"
        case analyses = "idx.byAnalyses"

        /// The byte that starts this index's keys in `idx.counts`.
        var tag: UInt8 {
            switch self {
            case .key: 0x4b      // K
            case .time: 0x54     // T
            case .integrity: 0x49 // I
            case .trust: 0x52    // R
            case .kind: 0x4e     // N
            case .sidecar: 0x53  // S
            case .ingest: 0x47   // G
            case .analyses: 0x41 // A
            }
        }
    }

    let index: Index
    let key: [UInt8]

    /// This entry's key in `idx.counts`: the index tag and the key without its record ID.
    var countKey: [UInt8] { [index.tag] + key.dropLast(32) }

    /// Key prefix `part 0x00 part 0x00 …` (each part followed by a NUL).
    static func prefix(_ parts: [String]) -> [UInt8] {
        var out = [UInt8]()
        for p in parts {
            out.append(contentsOf: p.utf8)
            out.append(0)
        }
        return out
    }

    /// Every index entry of `record`. Throws for a time that cannot be a key part (empty or
    /// holding NUL); the other values are typed (IDs, vocabularies) and always can.
    static func entries(of record: IndexedRecord) throws -> Set<IndexEntry> {
        let idBytes = record.recordId.bytes
        var out = Set<IndexEntry>()
        func add(_ index: Index, _ parts: [String]) {
            out.insert(IndexEntry(index: index, key: prefix(parts) + idBytes))
        }
        func check(_ name: String, _ value: String) throws {
            guard !value.isEmpty, !value.utf8.contains(0) else {
                throw QueryError.invalidField(name: name, value: value)
            }
        }
        if let fp = record.keyFingerprint { add(.key, [fp.hex]) }
        if let t = record.captureTime {
            try check("captureTime", t)
            add(.time, [t])
        }
        add(.integrity, [record.integrity.rawValue])
        if let t = record.trust { add(.trust, [t.rawValue]) }
        add(.kind, [record.kind.rawValue])
        try check("ingestTime", record.ingestTime)
        add(.ingest, [record.ingestTime])
        if let a = record.analyses { add(.analyses, [a.state.rawValue]) }
        // Every state of every copy of each sink (the record's rolled-up state and each
        // sidecar variant's), so a second copy that mismatched is found by its state.
        for (sink, states) in record.sidecarStates(primary: record.sidecars) {
            for state in states {
                add(.sidecar, [state.rawValue, sink.rawValue])   // this sink in this state
                add(.sidecar, [state.rawValue, ""])              // some sink in this state (one entry per record)
            }
            add(.sidecar, ["", sink.rawValue])                   // this sink present, any state
        }
        return out
    }
}
