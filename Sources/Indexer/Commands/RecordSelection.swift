import Archive
import Ground
import Query

/// The records the filter options select (`query`, `reverify`, `export --query`): within one
/// filter, the values given — by repeating it or as a comma list — are alternatives (OR);
/// different filters must all hold (AND). `--sidecar uncommitted --sidecar mismatch --sink
/// audio` selects the records whose audio sidecar is uncommitted or mismatched.
///
/// It is evaluated as the union of the `RecordFilter`s of every combination of one value per
/// filter (the index answers each as before); a record that matches one combination and is
/// only indeterminate under another (two `--time` prefixes) is a match.
struct RecordSelection: Equatable {
    /// One `RecordFilter` per combination of values (one empty filter when none is given).
    var filters: [RecordFilter]
    /// Whether a `--time` filter was given (the table lists indeterminate records then).
    var hasTime: Bool { filters.contains { $0.timePrefix != nil } }
    /// No filter at all: every record.
    var isEverything: Bool { filters == [RecordFilter()] }

    /// Combinations beyond this are refused (each is one index query).
    static let maxCombinations = 1024

    /// The selection the options of `args` ask for; a value outside the allowed list, a
    /// malformed key or time, or too many combinations is a usage error of `command`.
    init(_ args: ParsedArguments, command: String) throws {
        func values(_ option: String) throws -> [String] {
            var out: [String] = []
            for given in args.allValues(option) {
                for part in given.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                    guard !part.isEmpty else { throw UsageError("--\(option) has an empty value in '\(given)'", command: command) }
                    if !out.contains(part) { out.append(part) }
                }
            }
            return out
        }
        func pick(_ option: String, _ allowed: [String]) throws -> [String] {
            let list = try values(option)
            for v in list where !allowed.contains(v) {
                throw UsageError("--\(option) must be one of \(allowed.joined(separator: ", ")), not '\(v)'"
                    + Suggestion.didYouMean(v, among: allowed), command: command)
            }
            return list
        }
        let keys = try values("key").map { k -> String in
            let lower = k.lowercased()
            guard (1...64).contains(lower.utf8.count), lower.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                throw UsageError("--key must be a key fingerprint or a prefix of one (1 to 64 hex digits), not '\(k)'", command: command)
            }
            return lower
        }
        let times = try values("time")
        for t in times {
            guard TimePrefix.hasShape(t) else {
                throw UsageError("--time must be a prefix of YYYY-MM-DDTHH:MM:SS.sssZ (e.g. 2026-11-30T14), not '\(t)'", command: command)
            }
            guard TimePrefix.isPossible(t) else {
                throw UsageError("--time '\(t)' is not a possible date or time (month 01–12, day of that month, hour 00–23, minute and second 00–59)",
                                 command: command)
            }
        }
        let dimensions: [[String?]] = [
            keys, times, try pick("state", QueryCommand.integrityValues), try pick("sidecar", QueryCommand.sidecarValues),
            try pick("sink", QueryCommand.sinkValues), try pick("kind", QueryCommand.kindValues),
            try pick("trust", QueryCommand.trustValues), try pick("analyses", QueryCommand.analysesValues),
        ].map { $0.isEmpty ? [nil] : $0 }
        let combinations = dimensions.reduce(1) { $0 * $1.count }
        guard combinations <= Self.maxCombinations else {
            throw UsageError("the filters' values make \(combinations) combinations; at most \(Self.maxCombinations)", command: command)
        }
        var filters = [RecordFilter()]
        for (n, options) in dimensions.enumerated() {
            filters = filters.flatMap { f in
                options.map { v in
                    var g = f
                    switch n {
                    case 0: g.keyPrefix = v
                    case 1: g.timePrefix = v
                    case 2: g.integrity = v.flatMap(Integrity.init(rawValue:))
                    case 3: g.sidecarState = v.flatMap(SidecarState.init(rawValue:))
                    case 4: g.sink = v.flatMap(SidecarSink.init(rawValue:))
                    case 5: g.kind = v.flatMap(MediaKind.init(rawValue:))
                    case 6: g.trust = v.flatMap(Trust.init(rawValue:))
                    default: g.analyses = v.flatMap(AnalysisState.init(rawValue:))
                    }
                    return g
                }
            }
        }
        self.filters = filters
    }

    /// The union of every filter's answer, IDs ascending; with `limit`, the first `limit` of
    /// each list (every filter's first `limit` are right, so their union's are).
    func query(_ index: any RecordStore<IndexedRecord>, limit: Int? = nil) throws -> QueryResult {
        if filters.count == 1 { return try index.query(filters[0], limit: limit) }
        var matches = Set<ContentID>(), indeterminate = Set<ContentID>()
        for f in filters {
            let r = try index.query(f, limit: limit)
            matches.formUnion(r.matches)
            indeterminate.formUnion(r.indeterminate)
        }
        let n = limit ?? Int.max
        return QueryResult(matches: Array(matches.sorted().prefix(n)),
                           indeterminate: Array(indeterminate.subtracting(matches).sorted().prefix(n)))
    }

    /// How many records the union selects (one filter: the index's own count).
    func count(_ index: any RecordStore<IndexedRecord>) throws -> QueryCount {
        if filters.count == 1 { return try index.count(filters[0]) }
        let r = try query(index)
        return QueryCount(matches: r.matches.count, indeterminate: r.indeterminate.count)
    }
}
