import ArchiveLMDB
import CAS
import Foundation
import Ground
import LMDB
import Query
import TestLiterals
import Testing

@Suite struct RecordIndexTests {
    @Test func putGetRoundTripsEveryField() throws {
        let a = try TestArchive()
        let r = record(1, sidecars: ["audio": "verified", "ring": "uncommitted"], variants: 2)
        try a.index.put(r)
        #expect(try a.index.get(recordId: r.recordId) == r)
        #expect(try a.index.contains(recordId: r.recordId))
        #expect(try !a.index.contains(recordId: hexID(2)))
        #expect(try a.index.get(recordId: hexID(2)) == nil)
        #expect(try a.index.count == 1)
    }

    @Test func variantBlobMapsToItsRecord() throws {
        let a = try TestArchive()
        let r = record(5, variants: 2)
        try a.index.put(r)
        #expect(try a.index.recordId(forVariant: r.variants[0].blobId) == r.recordId)
        #expect(try a.index.recordId(forVariant: r.variants[1].blobId) == r.recordId)
        #expect(try a.index.recordId(forVariant: hexID(5, salt: 5)) == nil)
        // A replacement that drops a variant drops its mapping.
        var fewer = r
        fewer.variants.removeLast()
        try a.index.put(fewer)
        #expect(try a.index.recordId(forVariant: r.variants[1].blobId) == nil)
        #expect(try a.index.recordId(forVariant: r.variants[0].blobId) == r.recordId)
    }

    @Test func replaceMovesIndexEntries() throws {
        let a = try TestArchive()
        var r = record(1, integrity: "intact", trust: "untrusted", sidecars: ["audio": "uncommitted", "ring": "verified"])
        try a.put([r, record(2, sidecars: ["audio": "verified"])])
        #expect(try a.index.query(RecordFilter(sidecarState: "uncommitted")).matches == [r.recordId])
        #expect(try a.index.query(RecordFilter(trust: "untrusted")).matches == [r.recordId])

        r.integrity = "tampered"
        r.trust = "trusted"
        r.sidecars = ["audio": "verified", "ring": "mismatch"]
        r.keyFingerprint = hexID(2000)
        r.captureTime = "2026-10"
        try a.index.put(r)
        #expect(try a.index.count == 2)
        #expect(try a.index.query(RecordFilter(sidecarState: "uncommitted")).matches == [])
        #expect(try a.index.query(RecordFilter(sidecarState: "mismatch", sink: "ring")).matches == [r.recordId])
        #expect(try a.index.query(RecordFilter(sidecarState: "verified", sink: "audio")).matches == ids([1, 2]))
        #expect(try a.index.query(RecordFilter(trust: "untrusted")).matches == [])
        #expect(try a.index.query(RecordFilter(integrity: "intact")).matches == [hexID(2)])
        #expect(try a.index.query(RecordFilter(integrity: "tampered")).matches == [r.recordId])
        #expect(try a.index.query(RecordFilter(keyPrefix: hexID(1000).hex)).matches == [hexID(2)])
        #expect(try a.index.query(RecordFilter(keyPrefix: hexID(2000).hex)).matches == [r.recordId])
        #expect(try a.index.query(RecordFilter(timePrefix: "2026-11-30")).matches == [hexID(2)])
        #expect(try a.index.query(RecordFilter(timePrefix: "2026-10")).matches == [r.recordId])
        // Old entries are gone, not just shadowed: the counts agree.
        #expect(try a.index.count(RecordFilter(trust: "trusted")) == QueryCount(matches: 2, indeterminate: 0))
        #expect(try a.index.count(RecordFilter(sidecarState: "verified")) == QueryCount(matches: 2, indeterminate: 0))
    }

    @Test func putIsIdempotent() throws {
        let a = try TestArchive()
        let r = record(3, sidecars: ["audio": "uncommitted"])
        try a.put([r, r])
        try a.index.put(r)
        #expect(try a.index.count == 1)
        #expect(try a.index.count(RecordFilter(sidecarState: "uncommitted")).matches == 1)
        #expect(try a.index.count(RecordFilter(sink: "audio")).matches == 1)
    }

    @Test func removeDeletesRecordEntriesAndVariants() throws {
        let a = try TestArchive()
        let r = record(4, sidecars: ["audio": "uncommitted"])
        try a.put([r, record(5)])
        let removed = try a.store.environment.write { try a.index.remove(recordId: r.recordId, in: $0) }
        #expect(removed)
        #expect(try a.index.count == 1)
        #expect(try a.index.query(RecordFilter(sidecarState: "uncommitted")).matches.isEmpty)
        #expect(try a.index.query(RecordFilter(integrity: "intact")).matches == [hexID(5)])
        #expect(try a.index.recordId(forVariant: r.variants[0].blobId) == nil)
    }

    @Test func rejectsBadIdsAndFields() throws {
        let a = try TestArchive()
        // IDs, fingerprints and the vocabularies are typed: a short, uppercase or non-hex ID,
        // a value holding NUL or an empty integrity cannot reach the index at all.
        let r = record(1)
        #expect(ContentID(hex: String(r.recordId.dropLast())) == nil)
        #expect(ContentID(hex: r.recordId.uppercased()) == nil)
        #expect(ContentID(hex: "not-hex") == nil)
        #expect(SidecarState(rawValue: "un\0committed") == nil)
        #expect(Integrity(rawValue: "") == nil)
        // A time holding NUL still cannot be a key part.
        #expect(throws: QueryError.invalidField(name: "captureTime", value: "2026\0")) { try a.index.put(record(1, time: "2026\0")) }
        #expect(try a.index.count == 0)
        #expect(throws: QueryError.invalidRecordId("xyz")) { try a.index.recordIds(withPrefix: "xyz") }
        #expect(throws: QueryError.invalidRecordId("ABCDEF12")) { try a.index.recordIds(withPrefix: "ABCDEF12") }
    }

    @Test func sharesTheEnvironmentWithTheCAS() throws {
        let a = try TestArchive()
        let r = record(9)
        // Blob and record commit in one transaction, as ingest does.
        let blob = try a.store.environment.write { txn in
            try a.index.put(r, in: txn)
            return try a.store.put(bytes: Array("hello".utf8), in: txn)
        }
        #expect(try a.store.record(of: blob.id)?.size == 5)
        // Reopening the archive finds both.
        let reopened = try ContentStore.open(at: a.path)
        let index = try RecordIndex(environment: reopened.environment)
        #expect(try index.get(recordId: r.recordId) == r)
        #expect(try reopened.record(of: blob.id)?.size == 5)
    }

    @Test func recordAndIndexCommitOrAbortTogether() throws {
        struct Abort: Error {}
        let a = try TestArchive()
        #expect(throws: Abort.self) {
            try a.store.environment.write { txn in
                try a.index.put(record(1, sidecars: ["audio": "uncommitted"]), in: txn)
                throw Abort()
            }
        }
        #expect(try a.index.count == 0)
        #expect(try a.index.count(RecordFilter(sidecarState: "uncommitted")).matches == 0)
    }

    @Test func prefixResolution() throws {
        let a = try TestArchive()
        // Two IDs sharing their first 9 hex digits, and one apart.
        let base = hexID(1)
        let twinA = id(String(base.prefix(9)) + "0" + String(base.dropFirst(10)))
        let twinB = id(String(base.prefix(9)) + "f" + String(base.dropFirst(10)))
        var r1 = record(1); r1.recordId = twinA
        var r2 = record(2); r2.recordId = twinB
        try a.put([r1, r2, record(3)])
        #expect(try a.index.recordIds(withPrefix: String(base.prefix(9))) == [twinA, twinB])
        #expect(try a.index.recordIds(withPrefix: String(base.prefix(8))) == [twinA, twinB])
        #expect(try a.index.recordIds(withPrefix: String(twinA.prefix(10))) == [twinA])
        #expect(try a.index.recordIds(withPrefix: String(twinB.prefix(11))) == [twinB])
        #expect(try a.index.recordIds(withPrefix: twinB.hex) == [twinB])
        #expect(try a.index.recordIds(withPrefix: String(hexID(3).prefix(8))) == [hexID(3)])
        #expect(try a.index.recordIds(withPrefix: String(hexID(4).prefix(12))) == [])
        #expect(throws: QueryError.invalidRecordId("zz")) { try a.index.recordIds(withPrefix: "zz") }
    }
}

@Suite struct CounterTests {
    /// Random inserts, replacements and removals: the kept counts always equal a recount, and
    /// one-filter counts (answered from them) equal the listed answers.
    @Test func countersFollowEveryChange() throws {
        let a = try TestArchive()
        var rng: UInt64 = 12345
        func roll(_ n: Int) -> Int { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return Int(rng >> 33) % n }
        let states: [SidecarState] = ["verified", "uncommitted", "mismatch"], times = ["2026", "2026-11", "2026-11-30", "2026-11-30T14",
                                                                         "2026-11-30T14:05", "2026-11-30T14:05:06.789Z", "2026-12-01T00"]
        for round in 0..<6 {
            try a.store.environment.write { txn in
                for _ in 0..<80 {
                    let n = roll(60)
                    if roll(10) == 0 { _ = try a.index.remove(recordId: hexID(n), in: txn); continue }
                    var sidecars: [SidecarSink: SidecarState] = [:]
                    for sink in ["audio", "ring", "depth"] as [SidecarSink] where roll(2) == 0 { sidecars[sink] = states[roll(3)] }
                    try a.index.put(record(n, kind: roll(2) == 0 ? "still" : "video", integrity: (["intact", "tampered"] as [Integrity])[roll(2)],
                                           trust: roll(3) == 0 ? nil : "trusted", key: roll(4) == 0 ? nil : hexID(900 + roll(3)),
                                           time: roll(8) == 0 ? nil : times[roll(times.count)], sidecars: sidecars), in: txn)
                }
            }
            #expect(try a.index.checkCounters() == [], "round \(round)")
            for f in [RecordFilter(sidecarState: "uncommitted"), RecordFilter(sidecarState: "mismatch", sink: "ring"),
                      RecordFilter(sink: "depth"), RecordFilter(keyPrefix: hexID(901).hex), RecordFilter(keyPrefix: String(hexID(902).prefix(2))),
                      RecordFilter(timePrefix: "2026-11-30T14"), RecordFilter(timePrefix: "2026-11-3"), RecordFilter(timePrefix: "2026"),
                      RecordFilter(integrity: "tampered"), RecordFilter(kind: "video"), RecordFilter(trust: "trusted")] {
                let q = try a.index.query(f)
                #expect(try a.index.count(f) == QueryCount(matches: q.matches.count, indeterminate: q.indeterminate.count), "\(f)")
            }
        }
        #expect(try a.index.count > 20)
    }

    @Test func checkNamesADamagedCounter() throws {
        let a = try TestArchive()
        try a.put([record(1, sidecars: ["audio": "uncommitted"]), record(2, sidecars: ["audio": "uncommitted"])])
        #expect(try a.index.checkCounters() == [])
        let counts = try a.store.environment.database("idx.counts")
        try a.store.environment.write { txn in
            _ = try txn.put(counts, Array("S".utf8) + Array("uncommitted".utf8) + [0, 0], [0, 0, 0, 0, 0, 0, 0, 5])
        }
        #expect(try a.index.checkCounters() == ["count Suncommitted||: stored 5, entries 2"])
        #expect(try a.index.count(RecordFilter(sidecarState: "uncommitted")).matches == 5)
        #expect(try a.index.query(RecordFilter(sidecarState: "uncommitted")).matches.count == 2)
    }
}
