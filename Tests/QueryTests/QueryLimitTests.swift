import Foundation
import Ground
import Query
import TestLiterals
import Testing

/// `query(_:limit:)`: the first N IDs of the full answer, whichever path computes them (the
/// early-stopping walk of exact terms, or the full answer cut), and fingerprint prefixes
/// resolved through the counters.
@Suite struct QueryLimitTests {
    /// Three fingerprints: two share the prefix `aaaa`, one starts `bbbb`.
    static let fpA1 = "aaaa" + String(hexID(1).dropFirst(4)), fpA2 = "aaaa" + String(hexID(2).dropFirst(4))
    static let fpB = "bbbb" + String(hexID(3).dropFirst(4))

    static func records() -> [IndexedRecord] {
        (0..<600).map { n in
            record(n, kind: n % 3 == 0 ? "video" : "still", integrity: n % 5 == 0 ? "tampered" : "intact",
                   trust: n % 7 == 0 ? "untrusted" : "trusted", key: id([fpA1, fpA2, fpB][n % 3]),
                   time: "2026-11-\(10 + n % 20)T\(10 + n % 12)",
                   sidecars: n % 11 == 1 ? ["audio": "uncommitted"] : ["audio": "verified"])
        }
    }

    @Test func limitIsThePrefixOfTheFullAnswer() throws {
        let a = try TestArchive()
        try a.put(Self.records())
        let keys: [String?] = [nil, Self.fpA1, "aaaa", "bbbb", "bb", "cccc"]
        let times: [String?] = [nil, "2026-11-1"]
        let states: [Integrity?] = [nil, "tampered"]
        let sidecars: [SidecarState?] = [nil, "uncommitted"]
        let kinds: [MediaKind?] = [nil, "video"]
        let trusts: [Trust?] = [nil, "untrusted"]
        var checked = 0
        for k in keys { for t in times { for s in states { for sc in sidecars { for kind in kinds { for tr in trusts {
            let f = RecordFilter(keyPrefix: k, timePrefix: t, integrity: s, sidecarState: sc, kind: kind, trust: tr)
            let full = try a.index.query(f)
            for n in [1, 3, 50, 10_000] {
                let cut = try a.index.query(f, limit: n)
                #expect(cut.matches == Array(full.matches.prefix(n)), "filter \(f) limit \(n)")
                #expect(cut.indeterminate == Array(full.indeterminate.prefix(n)), "filter \(f) limit \(n)")
            }
            checked += 1
        } } } } } }
        #expect(checked == 6 * 2 * 2 * 2 * 2 * 2)
    }

    @Test func fingerprintPrefixesResolve() throws {
        let a = try TestArchive()
        let recs = Self.records()
        try a.put(recs)
        func want(_ p: String) -> [ContentID] { recs.filter { $0.keyFingerprint!.hasPrefix(p) }.map(\.recordId).sorted() }
        // One fingerprint under the prefix, two, none.
        #expect(try a.index.query(RecordFilter(keyPrefix: "bbbb")).matches == want("bbbb"))
        #expect(want("bbbb").count == 200)
        #expect(try a.index.query(RecordFilter(keyPrefix: "aaaa")).matches == want("aaaa"))
        #expect(want("aaaa").count == 400)
        #expect(try a.index.query(RecordFilter(keyPrefix: "cccc")).matches.isEmpty)
        #expect(try a.index.query(RecordFilter(keyPrefix: "bbbb"), limit: 5).matches == Array(want("bbbb").prefix(5)))
        #expect(try a.index.query(RecordFilter(keyPrefix: "aaaa", kind: "video"), limit: 7).matches
                == Array(recs.filter { $0.keyFingerprint!.hasPrefix("aaaa") && $0.kind == "video" }.map(\.recordId).sorted().prefix(7)))
        // After the only record of a fingerprint goes, its prefix names nothing.
        let lone = record(9999, key: id("cccc" + String(hexID(4).dropFirst(4))))
        try a.put([lone])
        #expect(try a.index.query(RecordFilter(keyPrefix: "cc")).matches == [lone.recordId])
        _ = try a.store.environment.write { try a.index.remove(recordId: lone.recordId, in: $0) }
        #expect(try a.index.query(RecordFilter(keyPrefix: "cc")).matches.isEmpty)
    }

    @Test func limitMustBePositive() throws {
        let a = try TestArchive()
        #expect(throws: QueryError.invalidField(name: "limit", value: "0")) { try a.index.query(RecordFilter(), limit: 0) }
    }
}
