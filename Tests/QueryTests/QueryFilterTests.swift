import Foundation
import Ground
import LMDB
import Query
import TestLiterals
import Testing

@Suite struct QueryFilterTests {
    /// Ten records spanning every filter's values.
    static func sample() -> [IndexedRecord] {
        let k1 = hexID(1000), k2 = hexID(2000)
        return [
            record(0, kind: "still", integrity: "intact", trust: "trusted", key: k1, time: "2026-11-30T14:05:06.789Z",
                   sidecars: ["audio": "verified", "sensors": "verified"]),
            record(1, kind: "video", integrity: "intact", trust: "untrusted", key: k1, time: "2026-11-30T14",
                   sidecars: ["audio": "uncommitted", "ring": "verified"]),
            record(2, kind: "still", integrity: "tampered", trust: "trusted", key: k2, time: "2026-11-30",
                   sidecars: ["ring": "uncommitted", "depth": "mismatch"]),
            record(3, kind: "video", integrity: "intact", trust: "trusted", key: k2, time: "2026-11",
                   sidecars: ["audio": "missing"]),
            record(4, kind: "still", integrity: "unsigned", trust: nil, key: nil, time: "2026",
                   sidecars: ["audio": "uncommitted", "sensors": "uncommitted"]),
            record(5, kind: "still", integrity: "malformed", trust: nil, key: nil, time: nil),
            record(6, kind: "still", integrity: "intact", trust: "trusted", key: k1, time: "2026-11-30T15:00",
                   sidecars: ["depth": "verified"]),
            record(7, kind: "video", integrity: "intact", trust: "trusted", key: k2, time: "2026-11-29T14:00:00",
                   sidecars: ["sensors": "uncommitted"]),
            record(8, kind: "still", integrity: "intact", trust: "untrusted", key: k1, time: "2026-11-30T14:59:59.999Z"),
            record(9, kind: "still", integrity: "intact", trust: "trusted", key: k2, time: "2025-11-30T14"),
        ]
    }

    static func archive() throws -> TestArchive {
        let a = try TestArchive()
        try a.put(sample())
        return a
    }

    /// What a full scan of the sample computes for `f` (the reference the index must equal).
    static func reference(_ f: RecordFilter) -> QueryResult {
        var m: [ContentID] = [], i: [ContentID] = []
        for r in sample() {
            if let k = f.keyPrefix, !(r.keyFingerprint?.hex ?? "").hasPrefix(k) { continue }
            if let v = f.integrity, r.integrity != v { continue }
            if let v = f.trust, r.trust != v { continue }
            if let v = f.kind, r.kind != v { continue }
            if let s = f.sidecarState {
                if let sink = f.sink { if r.sidecars[sink] != s { continue } } else if !r.sidecars.values.contains(s) { continue }
            } else if let sink = f.sink, r.sidecars[sink] == nil { continue }
            if let t = f.timePrefix {
                guard let c = r.captureTime else { continue }
                if c.hasPrefix(t) { m.append(r.recordId) } else if t.hasPrefix(c) { i.append(r.recordId) }
                continue
            }
            m.append(r.recordId)
        }
        return QueryResult(matches: m.sorted(), indeterminate: i.sorted())
    }

    @Test func singleFilters() throws {
        let a = try Self.archive()
        let q = { (f: RecordFilter) in try a.index.query(f) }
        #expect(try q(RecordFilter()).matches == ids(Array(0...9)))
        #expect(try q(RecordFilter(integrity: "intact")).matches == ids([0, 1, 3, 6, 7, 8, 9]))
        #expect(try q(RecordFilter(integrity: "tampered")).matches == ids([2]))
        #expect(try q(RecordFilter(integrity: "unsigned")).matches == ids([4]))
        #expect(try q(RecordFilter(integrity: "malformed")).matches == ids([5]))
        #expect(try q(RecordFilter(trust: "untrusted")).matches == ids([1, 8]))
        #expect(try q(RecordFilter(kind: "video")).matches == ids([1, 3, 7]))
        #expect(try q(RecordFilter(keyPrefix: hexID(1000).hex)).matches == ids([0, 1, 6, 8]))
        #expect(try q(RecordFilter(keyPrefix: String(hexID(2000).prefix(3)))).matches == ids([2, 3, 7, 9]))
        #expect(try q(RecordFilter(sidecarState: "uncommitted")).matches == ids([1, 2, 4, 7]))
        #expect(try q(RecordFilter(sidecarState: "uncommitted", sink: "audio")).matches == ids([1, 4]))
        #expect(try q(RecordFilter(sidecarState: "uncommitted", sink: "depth")).matches == [])
        #expect(try q(RecordFilter(sink: "depth")).matches == ids([2, 6]))
        #expect(try q(RecordFilter(sidecarState: "mismatch")).matches == ids([2]))
        #expect(try q(RecordFilter(ingestPrefix: "2026-12")).matches.count == 10)
        #expect(try q(RecordFilter(ingestPrefix: "2027")).matches == [])
        #expect(try q(RecordFilter(keyPrefix: "ffff" + hexID(1000).dropFirst(4))).matches == []
                || hexID(1000).hasPrefix("ffff"))
    }

    @Test func timeRungsAndIndeterminate() throws {
        let a = try Self.archive()
        // Hour rung: hour-or-finer records under 14 match; the day-only and coarser ones that
        // contain the hour are indeterminate; 29th, 15h and 2025 are neither.
        let hour = try a.index.query(RecordFilter(timePrefix: "2026-11-30T14"))
        #expect(hour.matches == ids([0, 1, 8]))
        #expect(hour.indeterminate == ids([2, 3, 4]))
        let day = try a.index.query(RecordFilter(timePrefix: "2026-11-30"))
        #expect(day.matches == ids([0, 1, 2, 6, 8]))
        #expect(day.indeterminate == ids([3, 4]))
        let year = try a.index.query(RecordFilter(timePrefix: "2026"))
        #expect(year.matches == ids([0, 1, 2, 3, 4, 6, 7, 8]))
        #expect(year.indeterminate == [])
        let minute = try a.index.query(RecordFilter(timePrefix: "2026-11-30T14:05"))
        #expect(minute.matches == ids([0]))
        #expect(minute.indeterminate == ids([1, 2, 3, 4]))
        let exact = try a.index.query(RecordFilter(timePrefix: "2026-11-30T14:59:59.999Z"))
        #expect(exact.matches == ids([8]))
        #expect(exact.indeterminate == ids([1, 2, 3, 4]))
        // Not on a rung boundary: "2026-11-3" continues the month-only record.
        let partial = try a.index.query(RecordFilter(timePrefix: "2026-11-3"))
        #expect(partial.matches == ids([0, 1, 2, 6, 8]))
        #expect(partial.indeterminate == ids([3, 4]))
        // Counts agree, without listing.
        #expect(try a.index.count(RecordFilter(timePrefix: "2026-11-30T14")) == QueryCount(matches: 3, indeterminate: 3))
    }

    @Test func combinationsEqualAFullScan() throws {
        let a = try Self.archive()
        let keys: [String?] = [nil, hexID(1000).hex, String(hexID(2000).prefix(5))]
        let times: [String?] = [nil, "2026-11-30T14", "2026-11-30", "2026-11"]
        let states: [Integrity?] = [nil, "intact", "tampered", "unsigned"]
        let sidecars: [(SidecarState?, SidecarSink?)] = [(nil, nil), ("uncommitted", nil), ("uncommitted", "audio"), (nil, "ring"), ("verified", nil)]
        let kinds: [MediaKind?] = [nil, "still", "video"]
        let trusts: [Trust?] = [nil, "trusted", "untrusted"]
        var checked = 0, nonEmpty = 0
        for k in keys { for t in times { for s in states { for (sc, sink) in sidecars { for kind in kinds { for tr in trusts {
            let f = RecordFilter(keyPrefix: k, timePrefix: t, integrity: s, sidecarState: sc, sink: sink, kind: kind, trust: tr)
            let want = Self.reference(f)
            let got = try a.index.query(f)
            #expect(got == want, "filter \(f)")
            #expect(try a.index.count(f) == QueryCount(matches: want.matches.count, indeterminate: want.indeterminate.count), "count \(f)")
            checked += 1
            if !want.matches.isEmpty { nonEmpty += 1 }
        } } } } } }
        #expect(checked == 3 * 4 * 4 * 5 * 3 * 3)
        #expect(nonEmpty > 50)
    }

    /// Large enough that intersection takes both paths (point lookups for a small candidate
    /// set, a merge for a large one); the answer must not depend on which.
    @Test func pointLookupAndMergePathsAgree() throws {
        let a = try TestArchive()
        var recs: [IndexedRecord] = []
        for n in 0..<3000 {
            recs.append(record(n, kind: n % 3 == 0 ? "video" : "still", integrity: n % 5 == 0 ? "tampered" : "intact",
                               key: hexID(n % 7 + 5000), time: "2026-11-\(10 + n % 20)T\(10 + n % 12)",
                               sidecars: n % 50 == 1 ? ["audio": "uncommitted"] : ["audio": "verified"]))
        }
        try a.put(recs)
        // Small base (60 uncommitted) narrowed by kind/integrity: point lookups.
        let small = RecordFilter(integrity: "intact", sidecarState: "uncommitted", kind: "video")
        let wantSmall = recs.filter { $0.sidecars["audio"] == "uncommitted" && $0.kind == "video" && $0.integrity == "intact" }.map(\.recordId).sorted()
        #expect(try a.index.query(small).matches == wantSmall)
        #expect(!wantSmall.isEmpty)
        // Large base (still) narrowed by tampered: merge.
        let large = RecordFilter(integrity: "tampered", kind: "still")
        let wantLarge = recs.filter { $0.kind == "still" && $0.integrity == "tampered" }.map(\.recordId).sorted()
        #expect(try a.index.query(large).matches == wantLarge)
        #expect(wantLarge.count == 400)
        let keyed = RecordFilter(keyPrefix: hexID(5003).hex, timePrefix: "2026-11-1")
        let wantKeyed = recs.filter { $0.keyFingerprint == hexID(5003) && $0.captureTime!.hasPrefix("2026-11-1") }.map(\.recordId).sorted()
        #expect(try a.index.query(keyed).matches == wantKeyed)
        #expect(try a.index.count(keyed).matches == wantKeyed.count)
    }

    /// Queries and counts read index keys only: with every record body destroyed they still
    /// answer, while `get` reports the damage.
    @Test func queryAndCountDoNotDecodeBodies() throws {
        let a = try Self.archive()
        let records = try a.store.environment.database("idx.records")
        try a.store.environment.write { txn in
            for r in Self.sample() {
                try txn.put(records, RecordIDBytes.of(r.recordId), Array("garbage".utf8))
            }
        }
        #expect(throws: QueryError.self) { try a.index.get(recordId: hexID(0)) }
        #expect(try a.index.count(RecordFilter(sidecarState: "uncommitted")) == QueryCount(matches: 4, indeterminate: 0))
        #expect(try a.index.count(RecordFilter(timePrefix: "2026-11-30T14")) == QueryCount(matches: 3, indeterminate: 3))
        #expect(try a.index.count(RecordFilter(integrity: "intact", kind: "still")) == QueryCount(matches: 4, indeterminate: 0))
        #expect(try a.index.query(RecordFilter(keyPrefix: hexID(1000).hex)).matches == ids([0, 1, 6, 8]))
    }

    @Test func rejectsBadFilterValues() throws {
        let a = try Self.archive()
        #expect(throws: QueryError.invalidField(name: "keyPrefix", value: "xyz")) { try a.index.query(RecordFilter(keyPrefix: "xyz")) }
        #expect(throws: QueryError.invalidField(name: "timePrefix", value: "")) { try a.index.count(RecordFilter(timePrefix: "")) }
    }
}

/// Raw record-ID bytes, to write into the records database directly.
enum RecordIDBytes {
    static func of(_ id: ContentID) -> [UInt8] {
        let hex = id.hex
        var out: [UInt8] = []
        var it = Array(hex.utf8).makeIterator()
        while let h = it.next(), let l = it.next() {
            func v(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : c - 0x61 + 10 }
            out.append(v(h) << 4 | v(l))
        }
        return out
    }
}
