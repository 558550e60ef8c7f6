import Archive
import Crypto
import Custody
import Foundation
import Ground
import Ingest
import Query
import Testing

/// The one contract every implementation of the archive's record, custody and trust stores
/// meets, run by IngestTests (`LMDBArchiveContractTests`, LMDB) and ArchivePostgresTests
/// (`PostgresArchiveContractTests`, a real PostgreSQL) on the same cases. A subject is a fresh,
/// empty archive plus the ways to hurt it behind its back that its medium allows.
public struct ArchiveSubject: Sendable {
    public let records: any RecordStore<IndexedRecord>
    public let custody: any CustodyStore
    public let trust: any TrustAnchorStore
    /// A second handle on the same archive for another writer: for PostgreSQL stores on a
    /// connection of their own; for LMDB the environment's (one per process).
    public let another: @Sendable () throws -> (records: any RecordStore<IndexedRecord>, custody: any CustodyStore)
    /// Replaces the stored bytes of report `reportId` without the store's API.
    public let overwriteReport: @Sendable (_ reportId: ContentID, _ bytes: [UInt8]) throws -> Void
    /// Flips one byte of record `recordId`'s stored body (in its JSON) without the store's API.
    public let damageBody: @Sendable (_ recordId: ContentID) throws -> Void

    public init(records: any RecordStore<IndexedRecord>, custody: any CustodyStore, trust: any TrustAnchorStore,
                another: @escaping @Sendable () throws -> (records: any RecordStore<IndexedRecord>, custody: any CustodyStore),
                overwriteReport: @escaping @Sendable (ContentID, [UInt8]) throws -> Void,
                damageBody: @escaping @Sendable (ContentID) throws -> Void) {
        self.records = records
        self.custody = custody
        self.trust = trust
        self.another = another
        self.overwriteReport = overwriteReport
        self.damageBody = damageBody
    }
}

public enum ArchiveContract {
    static let agent = CustodyAgent(operator: "contract", tool: .init(name: "exhibit-archive", version: "test"), host: "test-host")

    /// A custody event naming object `id` (v2, as the archive appends): a record when it is a
    /// record ID, else an `export`-kind identifier.
    public static func event(naming id: String, _ detail: String = "") throws -> CustodyAppend {
        let object = ContentID(hex: id).map(CustodyEvent.Object.record) ?? CustodyEvent.Object(kind: "export", id: id)
        return try CustodyAppend(CustodyDraft(.ingestion, agent: agent, objects: [object], detail: detail), version: .v2)
    }

    // MARK: Records

    /// Put (with a custody event each), get, records by IDs, contains, prefixes, count,
    /// reports by ID, replacement, removal.
    public static func recordsRoundTrip(_ s: ArchiveSubject, count: Int = 40) throws {
        let records = (0..<count).map { RecordSamples.record($0, seed: 11) }
        for r in records {
            let appended = try s.records.put(r, custody: [try event(naming: r.recordId.hex)])
            #expect(appended.count == 1)
        }
        #expect(try s.records.recordCount() == count)
        #expect(try s.custody.head().seq == UInt64(count))
        for r in records {
            #expect(try s.records.get(recordId: r.recordId) == r)
            #expect(try s.records.contains(recordId: r.recordId))
            #expect(try s.custody.custodyEvents(forObject: r.recordId.hex).count == 1)
        }
        let absent = contentID(999_999, salt: 3)
        #expect(try s.records.get(recordId: absent) == nil)
        #expect(try !s.records.contains(recordId: absent))
        let wanted = records.map(\.recordId).reversed() + [absent]
        var damaged: [ContentID] = []
        #expect(try s.records.records(Array(wanted)) { id, _ in damaged.append(id) } == records.reversed())
        #expect(damaged.isEmpty)

        let sorted = records.map(\.recordId).sorted()
        for n in [1, 2, 3, 63, 64] {
            let p = String(sorted[5].hex.prefix(n))
            #expect(try s.records.recordIds(withPrefix: p, limit: 3) == Array(sorted.filter { $0.hex.hasPrefix(p) }.prefix(3)))
        }
        #expect(throws: QueryError.invalidRecordId("XYZ")) { try s.records.recordIds(withPrefix: "XYZ", limit: 2) }

        // Reports by their SHA-256, stored once.
        let report = Data("{\"report\":\"second copy ü\"}".utf8)
        let reportId = try s.records.putReport(report)
        #expect(reportId == ContentID.sha256(of: report))
        #expect(try s.records.putReport(report) == reportId)
        #expect(try s.records.report(reportId, of: records[0].recordId) == report)
        #expect(try s.records.report(records[3].reportId, of: records[3].recordId) == records[3].reportJSON)

        // Replacement moves the record between index entries.
        var changed = records[0]
        changed.integrity = changed.integrity == .tampered ? .intact : .tampered
        changed.reportJSON = Data("{\"replaced\":true}".utf8)
        try s.records.put(changed)
        #expect(try s.records.get(recordId: changed.recordId) == changed)
        #expect(try s.records.query(RecordFilter(integrity: changed.integrity)).matches.contains(changed.recordId))
        #expect(try !s.records.query(RecordFilter(integrity: records[0].integrity)).matches.contains(changed.recordId))
        #expect(try s.records.report(records[0].reportId, of: changed.recordId) == records[0].reportJSON)  // kept
        #expect(try s.records.recordCount() == count)

        // Removal.
        #expect(try s.records.remove(recordId: records[1].recordId))
        #expect(try s.records.get(recordId: records[1].recordId) == nil)
        #expect(try !s.records.remove(recordId: records[1].recordId))
        #expect(try s.records.recordCount() == count - 1)
        #expect(try s.records.query(RecordFilter()).matches == sorted.filter { $0 != records[1].recordId })
    }

    /// Every variant maps to its record; a variant dropped loses its mapping; one taken by
    /// another record maps there; removal drops the mappings.
    public static func variants(_ s: ArchiveSubject) throws {
        var a = RecordSamples.record(1, seed: 21), b = RecordSamples.record(2, seed: 21)
        let extra = IndexedRecord.Variant(blobId: contentID(77, salt: 21), size: 9, sourcePaths: ["dump/rewrap.jpg"],
                                          firstIngested: "2026-12-02T10:00:00.000Z")
        a.variants.append(extra)
        try s.records.put(a)
        try s.records.put(b)
        for v in a.variants { #expect(try s.records.recordId(forVariant: v.blobId) == a.recordId) }
        for v in b.variants { #expect(try s.records.recordId(forVariant: v.blobId) == b.recordId) }
        #expect(try s.records.recordId(forVariant: contentID(78, salt: 21)) == nil)
        a.variants.removeLast()
        try s.records.put(a)
        #expect(try s.records.recordId(forVariant: extra.blobId) == nil)
        b.variants.append(extra)
        try s.records.put(b)
        #expect(try s.records.recordId(forVariant: extra.blobId) == b.recordId)
        #expect(try s.records.get(recordId: b.recordId)?.variants == b.variants)
        try s.records.remove(recordId: b.recordId)
        #expect(try s.records.recordId(forVariant: extra.blobId) == nil)
        #expect(try s.records.recordId(forVariant: a.variants[0].blobId) == a.recordId)
    }

    /// The analyses filter (issue 13): records pending, done and without a state are told
    /// apart by `query` and `count`, alone and with another filter, and a record put again as
    /// done moves from one answer to the other.
    public static func analysesFilter(_ s: ArchiveSubject) throws {
        let records = RecordSamples.analysed(12, seed: 41)
        for r in records { try s.records.put(r) }
        func ids(_ state: AnalysisState?, kind: MediaKind? = nil) -> [ContentID] {
            records.filter { $0.analyses?.state == state && (kind == nil || $0.kind == kind) }.map(\.recordId).sorted()
        }
        for state in AnalysisState.allCases {
            #expect(try s.records.query(RecordFilter(analyses: state)).matches == ids(state), "\(state)")
            #expect(try s.records.count(RecordFilter(analyses: state)).matches == ids(state).count, "\(state)")
            let kind = records[0].kind
            #expect(try s.records.query(RecordFilter(kind: kind, analyses: state)).matches == ids(state, kind: kind), "\(state) \(kind)")
        }
        var moved = records[0]
        moved.analyses = RecordAnalyses(state: .done, tool: "exhibit-archive test", libraries: [:])
        try s.records.put(moved)
        #expect(try !s.records.query(RecordFilter(analyses: .pending)).matches.contains(moved.recordId))
        #expect(try s.records.query(RecordFilter(analyses: .done)).matches.contains(moved.recordId))
        #expect(try s.records.get(recordId: moved.recordId)?.analyses == moved.analyses)
    }

    /// The sample records the query answers are taken over.
    public static func queryRecords(_ count: Int = 240) -> [IndexedRecord] {
        (0..<count).map { RecordSamples.record($0, seed: 31) }
    }

    /// Puts `queryRecords()`, then answers every filter of `RecordSamples.filters` (plus limits)
    /// as `query --json` and `query --count --json` print them: one line per answer. Each
    /// answer is checked against a plain evaluation of the filter over the records; the lines
    /// are returned so that two implementations can be compared byte for byte.
    public static func queryAnswers(_ s: ArchiveSubject, filters count: Int = 150) throws -> [String] {
        let records = queryRecords()
        for r in records { try s.records.put(r) }
        var lines: [String] = []
        for (n, f) in RecordSamples.filters(count, seed: 13).enumerated() {
            let expected = oracle(f, records)
            let result = try s.records.query(f, limit: nil)
            #expect(result.matches == expected.matches && result.indeterminate == expected.indeterminate, "filter \(n): \(f)")
            let tally = try s.records.count(f)
            #expect(tally == QueryCount(matches: expected.matches.count, indeterminate: expected.indeterminate.count), "filter \(n): \(f)")
            lines.append("# \(n) \(f)")
            lines.append("{\"indeterminate\":\(tally.indeterminate),\"matches\":\(tally.matches)}")
            for (ids, indeterminate) in [(result.matches, false), (result.indeterminate, true)] {
                let rows = try s.records.records(ids) { id, error in Issue.record("\(id): \(error)") }
                for r in rows { lines.append(try RecordRow(r, indeterminate: indeterminate).jsonLine()) }
            }
            for limit in [1, 3] {
                let cut = try s.records.query(f, limit: limit)
                #expect(cut.matches == Array(expected.matches.prefix(limit)) && cut.indeterminate == Array(expected.indeterminate.prefix(limit)),
                        "filter \(n) limit \(limit): \(f)")
                lines.append("limit \(limit): " + (cut.matches + cut.indeterminate).map(\.hex).joined(separator: ","))
            }
        }
        #expect(throws: QueryError.invalidField(name: "keyPrefix", value: "XYZ")) { try s.records.query(RecordFilter(keyPrefix: "XYZ"), limit: nil) }
        #expect(throws: QueryError.invalidField(name: "timePrefix", value: "")) { try s.records.count(RecordFilter(timePrefix: "")) }
        #expect(throws: QueryError.invalidField(name: "limit", value: "0")) { try s.records.query(RecordFilter(), limit: 0) }
        return lines
    }

    /// What `filter` selects from `records`, by docs/query.md's definitions, one record at a time.
    public static func oracle(_ f: RecordFilter, _ records: [IndexedRecord]) -> QueryResult {
        var matches: [ContentID] = [], indeterminate: [ContentID] = []
        for r in records {
            if let k = f.keyPrefix, !(r.keyFingerprint?.hex.hasPrefix(k) ?? false) { continue }
            if let st = f.sidecarState {
                if let sink = f.sink { if r.sidecars[sink] != st { continue } } else if !r.sidecars.values.contains(st) { continue }
            } else if let sink = f.sink, r.sidecars[sink] == nil { continue }
            if let v = f.integrity, r.integrity != v { continue }
            if let v = f.kind, r.kind != v { continue }
            if let v = f.trust, r.trust != v { continue }
            if let v = f.ingestPrefix, !r.ingestTime.hasPrefix(v) { continue }
            if let t = f.timePrefix {
                guard let time = r.captureTime else { continue }
                if time.hasPrefix(t) { matches.append(r.recordId) } else if t.hasPrefix(time) && time != t { indeterminate.append(r.recordId) }
                continue
            }
            matches.append(r.recordId)
        }
        return QueryResult(matches: matches.sorted(), indeterminate: indeterminate.sorted())
    }

    // MARK: Custody

    /// `total` appends in transactions of 1…7 events: seqs 1…total in order, each event's
    /// prevHash the hash before it, the head the last, the chain verified as `log --verify`
    /// verifies it, events found by object and read in pages.
    public static func custodyChain(_ s: ArchiveSubject, total: Int = 400) throws {
        #expect(try s.custody.head() == CustodyHead.empty)
        #expect(try s.custody.verifyChain().isIntact)
        var appended: [StoredCustodyEvent] = []
        var n = 0
        while n < total {
            let batch = min(total - n, 1 + n % 7)
            appended += try s.custody.append(try (n..<n + batch).map { try event(naming: "object-\($0 % 10)", "event \($0)") })
            n += batch
        }
        #expect(appended.map(\.seq) == (1...UInt64(total)).map { $0 })
        for (i, e) in appended.enumerated() {
            #expect(e.prevHash == (i == 0 ? CustodyHead.empty.hash : appended[i - 1].hash))
            #expect(e.stored.suffix(32).elementsEqual(e.hash))
        }
        #expect(try s.custody.head() == CustodyHead(seq: UInt64(total), hash: appended.last!.hash))
        #expect(try s.custody.allStoredEvents(page: 37) == appended)
        #expect(try s.custody.storedEvents(after: 10, limit: 5).map(\.seq) == [11, 12, 13, 14, 15])
        #expect(try s.custody.storedEvents(after: UInt64(total), limit: 5).isEmpty)
        #expect(try s.custody.storedEvents(forObject: "object-3").map(\.seq) == appended.filter { ($0.seq - 1) % 10 == 3 }.map(\.seq))
        let verification = try s.custody.verifyChain()
        #expect(verification.isIntact && verification.events == total && verification.headSeq == UInt64(total), "\(verification.problems)")
        #expect(try s.custody.custodyEvents().map(\.outcomeDetail) == (0..<total).map { "event \($0)" })
    }

    /// Two writers on handles of their own appending as fast as they can, one event per
    /// transaction: every seq used once, none skipped, each writer's events all there, the
    /// chain verified.
    public static func concurrentAppenders(_ s: ArchiveSubject, each: Int = 150) throws {
        let lock = NSLock()
        nonisolated(unsafe) var seqs: [[UInt64]] = [[], []]
        try twoWriters(s) { w, handle in
            var mine: [UInt64] = []
            for i in 0..<each {
                mine += try handle.custody.append([try event(naming: "writer-\(w)", "writer \(w) event \(i)")]).map(\.seq)
            }
            lock.lock(); seqs[w] = mine; lock.unlock()
        }
        let all = (seqs[0] + seqs[1]).sorted()
        #expect(all == (1...UInt64(2 * each)).map { $0 })
        for w in 0..<2 {
            #expect(seqs[w] == seqs[w].sorted())
            #expect(try s.custody.storedEvents(forObject: "writer-\(w)").map(\.seq) == seqs[w])
        }
        let verification = try s.custody.verifyChain()
        #expect(verification.isIntact && verification.events == 2 * each, "\(verification.problems)")
    }

    // MARK: Trust

    /// Anchors added (present ones skipped), listed by role then fingerprint, removed; one
    /// custody event per change, naming the anchor.
    public static func trustRoundTrip(_ s: ArchiveSubject) throws {
        let certs = try (0..<3).map { n in
            try CertificateBuilder(commonName: "Contract Anchor \(n)", serial: UInt64(n + 1), notBefore: Date(timeIntervalSince1970: 1_700_000_000),
                                   notAfter: Date(timeIntervalSince1970: 1_900_000_000), extensions: CertificateBuilder.rootCAExtensions)
                .selfSigned(key: try PrivateKey.generate(.p256))
        }
        func log(_ fp: String) -> CustodyAppend {
            // A draft's event cannot fail to build (its salt comes from the system's random source).
            try! CustodyAppend(CustodyDraft(.metadataModification, agent: agent, objects: [.anchor(fp)], detail: "trust"), version: .v2)
        }
        #expect(try s.trust.list(nil).isEmpty)
        let signers = [certs[0], certs[1]]
        #expect(try s.trust.add(signers, role: .signer) { log($0.sha256Fingerprint) } == signers.map(\.sha256Fingerprint))
        #expect(try s.trust.add(signers, role: .signer) { log($0.sha256Fingerprint) } == [])
        #expect(try s.trust.add([certs[2], certs[0]], role: .tsa) { log($0.sha256Fingerprint) }
                == [certs[2].sha256Fingerprint, certs[0].sha256Fingerprint])
        let expected = (signers.map { TrustAnchor(role: .signer, certificate: $0) }.sorted { $0.fingerprint < $1.fingerprint })
            + [certs[2], certs[0]].map { TrustAnchor(role: .tsa, certificate: $0) }.sorted { $0.fingerprint < $1.fingerprint }
        #expect(try s.trust.list(nil) == expected)
        #expect(try s.trust.list(.signer) == Array(expected.prefix(2)))
        #expect(try s.trust.list(.tsa).map(\.certificate.der) == Array(expected.suffix(2)).map(\.certificate.der))
        #expect(try s.trust.remove(fingerprints: [certs[0].sha256Fingerprint, "00"], role: .signer) { log($0) } == [certs[0].sha256Fingerprint])
        #expect(try s.trust.list(.signer).map(\.fingerprint) == [certs[1].sha256Fingerprint])
        #expect(try s.trust.list(.tsa).count == 2)
        #expect(try s.custody.storedEvents(forObject: certs[0].sha256Fingerprint).count == 3)  // signer add, tsa add, signer remove
        #expect(try s.custody.head().seq == 5)
        #expect(try s.custody.verifyChain().isIntact)
    }

    // MARK: Damage

    /// A report or body changed behind the store's back is refused by `get` with
    /// `index.record.damaged` naming the record, and named (not returned) by `records`; other
    /// records stay readable; a replaced report of the right bytes heals the record.
    public static func damageIsNamed(_ s: ArchiveSubject) throws {
        let records = (0..<3).map { RecordSamples.record($0, seed: 41) }
        for r in records { try s.records.put(r) }
        let hurt = records[1]
        try s.overwriteReport(hurt.reportId, Array("{\"record\":\"forged\"}".utf8))
        let error = #expect(throws: QueryError.self) { try s.records.get(recordId: hurt.recordId) }
        #expect(error?.statusCode == StatusCode.indexRecordDamaged)
        #expect("\(error.map { "\($0)" } ?? "")".contains(hurt.recordId.hex))
        #expect(throws: QueryError.self) { try s.records.report(hurt.reportId, of: hurt.recordId) }
        var named: [(ContentID, String)] = []
        let read = try s.records.records(records.map(\.recordId)) { id, e in named.append((id, e.statusCode)) }
        #expect(read == [records[0], records[2]])
        #expect(named.map(\.0) == [hurt.recordId] && named.map(\.1) == [StatusCode.indexRecordDamaged])
        try s.overwriteReport(hurt.reportId, Array(hurt.reportJSON))
        #expect(try s.records.get(recordId: hurt.recordId) == hurt)

        try s.damageBody(records[2].recordId)
        let bodyError = #expect(throws: QueryError.self) { try s.records.get(recordId: records[2].recordId) }
        #expect(bodyError?.statusCode == StatusCode.indexRecordDamaged)
        #expect(try s.records.get(recordId: records[0].recordId) == records[0])
        // Queries never read bodies: the damaged record is still found, and refused when read.
        #expect(try s.records.query(RecordFilter(), limit: nil).matches == records.map(\.recordId).sorted())
    }
}
