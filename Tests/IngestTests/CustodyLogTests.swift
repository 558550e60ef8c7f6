@testable import ArchiveLMDB
import Crypto
@testable import Custody
import Foundation
import Ground
@testable import Ingest
import LMDB
import TestLiterals
import Testing

/// The custody chain: appends, the documented hash bytes, and every kind of tampering named by seq.
@Suite struct CustodyLogTests {
    static let agent = CustodyAgent(operator: "tester", tool: .init(name: "exhibit-archive", version: "t"), host: "h")

    /// A fresh environment with a log of `count` v1 events (objects r1…, blob b1…), written by
    /// the v1 writer as archives made before v2 hold them (v2: `CustodyLogV2Tests`).
    func makeLog(_ count: Int) throws -> (CustodyLog, String) {
        let dir = NSTemporaryDirectory() + "custody-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var o = Environment.Options()
        o.mapSize = 1 << 20
        let log = try CustodyLog(environment: Environment(path: dir, options: o), eventVersion: .v1)
        try log.environment.write { txn in
            for i in 1...count {
                try log.append(CustodyDraft(.ingestion, agent: Self.agent, objects: [.init(kind: "record", id: "r\(i)"), .init(kind: "blob", id: "b\(i % 2)")],
                                            detail: "event \(i)", time: Date(timeIntervalSince1970: Double(i))), in: txn)
            }
        }
        return (log, dir)
    }

    func rewrite(_ log: CustodyLog, _ body: (Transaction) throws -> Void) throws {
        try log.environment.write { txn in try body(txn) }
    }

    func stored(_ log: CustodyLog, _ seq: UInt64) throws -> CustodyEvent {
        try log.environment.read { txn in
            try txn.withValue(log.events, CustodyLog.key(seq)) { raw in try CustodyEvent(stored: raw!) }
        }
    }

    func put(_ log: CustodyLog, _ e: CustodyEvent, at key: UInt64, in txn: Transaction) throws {
        _ = try txn.put(log.events, CustodyLog.key(key), e.storedBytes())
    }

    @Test func chainLinksAndHashBytes() throws {
        let (log, _) = try makeLog(4)
        let all = try log.allEvents()
        #expect(all.map(\.seq) == [1, 2, 3, 4])
        #expect(all[0].prevHash == CustodyEvent.genesisHash)
        for i in 1..<4 { #expect(all[i].prevHash == all[i - 1].hash) }
        #expect(all[0].time == "1970-01-01T00:00:01.000Z")
        // The documented bytes, built by hand: u32 BE length ‖ UTF-8, fixed field order.
        let e = all[1]
        var bytes: [UInt8] = []
        for f in ["exhibit-custody/1", "2", e.time, "ingestion", "tester", "exhibit-archive", "t", "h", "2",
                  "record", "r2", "blob", "b0", "success", "event 2", all[0].hash] {
            let n = f.utf8.count
            bytes += [UInt8(n >> 24), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + Array(f.utf8)
        }
        #expect(e.canonicalBytes() == bytes)
        #expect(e.hash == Hex.encode(MessageDigest.sha256(bytes)))
        #expect(try log.verify() == CustodyVerification(events: 4, headSeq: 4, problems: []))
        #expect(try log.events(forObject: "r3").map(\.seq) == [3])
        #expect(try log.events(forObject: "b0").map(\.seq) == [2, 4])
        #expect(CustodyEvent.EventType.fixityCheck.uri == "http://id.loc.gov/vocabulary/preservation/eventType/fix")
    }

    @Test func changedWithoutRehashIsNamed() throws {
        let (log, _) = try makeLog(5)
        var e = try stored(log, 3)
        e.outcomeDetail = "forged"
        try rewrite(log) { try put(log, e, at: 3, in: $0) }
        let v = try log.verify()
        #expect(v.problems.map(\.kind) == [.changed])
        #expect(v.problems.map(\.seq) == [3])
    }

    @Test func changedAndRehashedIsNamed() throws {
        let (log, _) = try makeLog(5)
        var e = try stored(log, 3)
        e.outcome = .failure
        e.hash = e.computedHash()
        try rewrite(log) { try put(log, e, at: 3, in: $0) }
        let v = try log.verify()
        #expect(v.problems.map(\.kind) == [.changed])
        #expect(v.problems.map(\.seq) == [3])
    }

    @Test func changedLastEventIsNamed() throws {
        let (log, _) = try makeLog(3)
        var e = try stored(log, 3)
        e.operator = "mallory"
        e.hash = e.computedHash()
        try rewrite(log) { try put(log, e, at: 3, in: $0) }
        #expect(try log.verify().problems.map { "\($0.kind) \($0.seq)" } == ["changed 3"])
    }

    @Test func removedIsNamed() throws {
        let (log, _) = try makeLog(5)
        try rewrite(log) { _ = try $0.delete(log.events, CustodyLog.key(2)) }
        #expect(try log.verify().problems.map { "\($0.kind) \($0.seq)" } == ["removed 2"])
    }

    @Test func removedAndRenumberedIsNamed() throws {
        let (log, _) = try makeLog(5)
        try rewrite(log) { txn in
            let later = try (3...5).map { try stored(log, $0) }
            for (i, e) in later.enumerated() { try put(log, e, at: UInt64(2 + i), in: txn) }
            _ = try txn.delete(log.events, CustodyLog.key(5))
            let head = CustodyLog.key(4) + Hex.decode(later[2].hash)!
            _ = try txn.put(log.meta, CustodyLog.headKey, head)
        }
        #expect(try log.verify().problems.map { "\($0.kind) \($0.seq)" } == ["removed 2"])
    }

    @Test func insertedInPlaceIsNamed() throws {
        let (log, _) = try makeLog(5)
        let before = try stored(log, 2)
        // A forged event that links correctly to event 2, with the later events moved up one.
        var forged = before
        forged.seq = 3
        forged.outcomeDetail = "inserted"
        forged.prevHash = before.hash
        forged.hash = forged.computedHash()
        try rewrite(log) { txn in
            let later = try (3...5).map { try stored(log, $0) }
            for (i, e) in later.enumerated() { try put(log, e, at: UInt64(4 + i), in: txn) }
            try put(log, forged, at: 3, in: txn)
            _ = try txn.put(log.meta, CustodyLog.headKey, CustodyLog.key(6) + Hex.decode(later[2].hash)!)
        }
        #expect(try log.verify().problems.map { "\($0.kind) \($0.seq)" } == ["inserted 3"])
    }

    @Test func truncatedTailIsNamed() throws {
        let (log, _) = try makeLog(4)
        try rewrite(log) { _ = try $0.delete(log.events, CustodyLog.key(4)) }
        #expect(try log.verify().problems.map { "\($0.kind) \($0.seq)" } == ["removed 4"])
    }

    @Test func malformedStoredEventIsRejected() throws {
        let (log, _) = try makeLog(2)
        var raw = try stored(log, 1).storedBytes()
        raw[3] = 200  // magic field length beyond the event
        try rewrite(log) { _ = try $0.put(log.events, CustodyLog.key(1), raw) }
        let v = try log.verify()
        #expect(v.problems.map { "\($0.kind) \($0.seq)" } == ["changed 1"])
        #expect(throws: CustodyError.self) { try raw.withUnsafeBytes { try CustodyEvent(stored: $0) } }
    }
}
