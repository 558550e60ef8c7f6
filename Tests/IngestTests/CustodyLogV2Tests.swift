@testable import ArchiveLMDB
import CAS
import Crypto
@testable import Custody
import Foundation
import Ground
@testable import Ingest
import LMDB
import TestLiterals
import Testing

/// Custody log format v2 (redactable events) and mixed v1/v2 chains.
@Suite struct CustodyLogV2Tests {
    static let agent = CustodyAgent(operator: "tester", tool: .init(name: "exhibit-archive", version: "t"), host: "h")

    static func environment() throws -> Environment {
        let dir = NSTemporaryDirectory() + "custody-v2-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var o = Environment.Options()
        o.mapSize = 1 << 20
        return try Environment(path: dir, options: o)
    }

    /// Appends events `range` (objects r<i>, b<i % 2>) with `log`.
    static func append(_ log: CustodyLog, _ range: ClosedRange<Int>) throws {
        try log.environment.write { txn in
            for i in range {
                try log.append(CustodyDraft(.ingestion, agent: agent, objects: [.init(kind: "record", id: "r\(i)"), .init(kind: "blob", id: "b\(i % 2)")],
                                            detail: "event \(i)", time: Date(timeIntervalSince1970: Double(i))), in: txn)
            }
        }
    }

    /// A log of events 1…v1Count written as v1, then v1Count+1…total as v2.
    static func mixedLog(v1 v1Count: Int, total: Int) throws -> CustodyLog {
        let env = try environment()
        if v1Count > 0 { try append(try CustodyLog(environment: env, eventVersion: .v1), 1...v1Count) }
        let log = try CustodyLog(environment: env)
        if total > v1Count { try append(log, (v1Count + 1)...total) }
        return log
    }

    static func field(_ s: String) -> [UInt8] { field(Array(s.utf8)) }
    static func field(_ b: [UInt8]) -> [UInt8] {
        let n = b.count
        return [UInt8(n >> 24), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + b
    }

    func stored(_ log: CustodyLog, _ seq: UInt64) throws -> CustodyEvent {
        try log.environment.read { txn in
            try txn.withValue(log.events, CustodyLog.key(seq)) { raw in try CustodyEvent(stored: raw!) }
        }
    }

    func put(_ log: CustodyLog, _ e: CustodyEvent, at key: UInt64) throws {
        try log.environment.write { txn in _ = try txn.put(log.events, CustodyLog.key(key), e.storedBytes()) }
    }

    func problems(_ log: CustodyLog) throws -> [String] {
        try log.verify().problems.map { "\($0.kind) \($0.seq)" }
    }

    /// The documented v2 bytes, built by hand: body, bodyHash, hashed header, stored value.
    @Test func v2HashBytesByHand() throws {
        let log = try Self.mixedLog(v1: 0, total: 3)
        let all = try log.allEvents()
        #expect(all.map(\.version) == [.v2, .v2, .v2])
        let e = all[1]
        let salt = try #require(e.salt)
        #expect(salt.count == 32 && Hex.decode(salt)?.count == 16)
        #expect(Set(all.compactMap(\.salt)).count == 3)  // fresh random salt per event
        var body: [UInt8] = []
        for f in ["exhibit-custody-body/2", salt, "1970-01-01T00:00:02.000Z", "ingestion", "tester", "exhibit-archive", "t", "h",
                  "2", "record", "r2", "blob", "b0", "success", "event 2"] { body += Self.field(f) }
        #expect(e.bodyBytes() == body)
        let bodyHash = Hex.encode(MessageDigest.sha256(body))
        #expect(e.computedBodyHash() == bodyHash)
        var header: [UInt8] = []
        for f in ["exhibit-custody/2", "2", all[0].hash, bodyHash] { header += Self.field(f) }
        #expect(e.hashedBytes() == header)
        #expect(e.hash == Hex.encode(MessageDigest.sha256(header)))
        #expect(e.prevHash == all[0].hash)
        #expect(all[0].prevHash == CustodyEvent.genesisHash)
        // Stored: "exhibit-custody/2", seq, prevHash, the body's fields, the raw hash.
        var storedBytes = Self.field("exhibit-custody/2") + Self.field("2") + Self.field(all[0].hash) + body
        storedBytes += Hex.decode(e.hash)!
        #expect(e.storedBytes() == storedBytes)
        #expect(try storedBytes.withUnsafeBytes { try CustodyEvent(stored: $0) } == e)
        #expect(try log.verify() == CustodyVerification(events: 3, headSeq: 3, problems: []))
        #expect(try log.events(forObject: "b0").map(\.seq) == [2])
        // A v1 event of the same content hashes every field directly: another hash.
        var v1 = e
        v1.version = .v1
        v1.salt = nil
        #expect(v1.computedHash() != e.hash)
        #expect(v1.computedBodyHash() == nil)
    }

    /// Events written by the v1 writer, then v2 events: one chain, `verify` intact, each event
    /// keeps its version, and the first v2 event links to the last v1 hash.
    @Test func mixedChainVerifies() throws {
        let log = try Self.mixedLog(v1: 3, total: 6)
        let all = try log.allEvents()
        #expect(all.map(\.version) == [.v1, .v1, .v1, .v2, .v2, .v2])
        #expect(all.map { $0.salt == nil } == [true, true, true, false, false, false])
        #expect(all[3].prevHash == all[2].hash)
        for i in 1..<6 { #expect(all[i].prevHash == all[i - 1].hash) }
        // v1 events are stored exactly as before: canonical v1 bytes ‖ hash.
        var v1: [UInt8] = []
        for f in ["exhibit-custody/1", "2", all[1].time, "ingestion", "tester", "exhibit-archive", "t", "h", "2",
                  "record", "r2", "blob", "b0", "success", "event 2", all[0].hash] { v1 += Self.field(f) }
        #expect(try stored(log, 2).storedBytes() == v1 + Hex.decode(all[1].hash)!)
        #expect(all[1].hash == Hex.encode(MessageDigest.sha256(v1)))
        #expect(try log.verify() == CustodyVerification(events: 6, headSeq: 6, problems: []))
    }

    /// A changed event in a v1-then-v2 chain, left as is and then re-hashed: named by seq both
    /// times. Events 1–2 are v1, 3–6 v2; seq 4 is a v2 body field, 2 a v1 field, 3 the first v2
    /// event (its prevHash is the last v1 hash).
    @Test(arguments: [(UInt64(4), "host"), (2, "outcome"), (3, "detail")])
    func changedEventInAMixedChainIsNamed(seq: UInt64, field: String) throws {
        let log = try Self.mixedLog(v1: 2, total: 6)
        var e = try stored(log, seq)
        switch field {
        case "host": e.host = "elsewhere"
        case "outcome": e.outcome = .failure
        default: e.outcomeDetail = "forged"
        }
        try put(log, e, at: seq)
        #expect(try problems(log) == ["changed \(seq)"])
        // Re-hashed (v2: a new bodyHash and hash): the next event's link names it.
        e.hash = e.computedHash()
        try put(log, e, at: seq)
        #expect(try problems(log) == ["changed \(seq)"])
    }

    @Test func changedV2SaltIsNamed() throws {
        let log = try Self.mixedLog(v1: 2, total: 5)
        var e = try stored(log, 3)
        var salt = Hex.decode(e.salt!)!
        salt[0] ^= 1
        e.salt = Hex.encode(salt)
        try put(log, e, at: 3)
        #expect(try problems(log) == ["changed 3"])
    }

    @Test func changedLastV2EventIsNamed() throws {
        let log = try Self.mixedLog(v1: 1, total: 3)
        var e = try stored(log, 3)
        e.operator = "mallory"
        e.hash = e.computedHash()
        try put(log, e, at: 3)
        #expect(try problems(log) == ["changed 3"])
    }

    @Test func removedV2EventIsNamed() throws {
        let log = try Self.mixedLog(v1: 2, total: 6)
        try log.environment.write { txn in _ = try txn.delete(log.events, CustodyLog.key(4)) }
        #expect(try problems(log) == ["removed 4"])
    }

    @Test func insertedV2EventIsNamed() throws {
        let log = try Self.mixedLog(v1: 2, total: 5)
        let before = try stored(log, 3)
        var forged = before
        forged.seq = 4
        forged.outcomeDetail = "inserted"
        forged.prevHash = before.hash
        forged.salt = Hex.encode(try SecureRandom.bytes(16))
        forged.hash = forged.computedHash()
        let later = try (4...5).map { try stored(log, $0) }
        try log.environment.write { txn in
            for (i, e) in later.enumerated() { _ = try txn.put(log.events, CustodyLog.key(UInt64(5 + i)), e.storedBytes()) }
            _ = try txn.put(log.events, CustodyLog.key(4), forged.storedBytes())
            _ = try txn.put(log.meta, CustodyLog.headKey, CustodyLog.key(6) + Hex.decode(later[1].hash)!)
        }
        #expect(try problems(log) == ["inserted 4"])
    }

    @Test func malformedV2SaltIsRejected() throws {
        let log = try Self.mixedLog(v1: 0, total: 2)
        var e = try stored(log, 1)
        e.salt = "00"  // 1 byte, not 16
        let raw = e.storedBytes()
        #expect(throws: CustodyError.malformedEvent("salt")) { try raw.withUnsafeBytes { try CustodyEvent(stored: $0) } }
        try put(log, e, at: 1)
        #expect(try problems(log) == ["changed 1"])
    }

    /// `log --verify` and `log --json` (the CLI) on an archive whose first events were written
    /// by the v1 writer and whose later events the CLI wrote as v2.
    @Test func logVerifyOnAMixedArchive() throws {
        let archive = DumpFixture.scratch("custody-v2") + "/archive"
        #expect(try TrustReverifyLogTests.cli(["init", "--archive", archive]).status == 0)
        do {
            let store = try ContentStore.open(at: archive)
            try Self.append(try CustodyLog(environment: store.environment, eventVersion: .v1), 1...3)
        }
        #expect(try TrustReverifyLogTests.cli(["audit", "--archive", archive]).status == 0)
        #expect(try TrustReverifyLogTests.cli(["audit", "--archive", archive]).status == 0)
        let events = TrustReverifyLogTests.lines(try TrustReverifyLogTests.cli(["log", "--archive", archive, "--json"]))
        #expect(events.compactMap { $0["version"] as? Int } == [1, 1, 1, 2, 2])
        #expect(events.map { $0["salt"] == nil } == [true, true, true, false, false])
        #expect(events[3]["prevHash"] as? String == events[2]["hash"] as? String)
        #expect(events[4]["eventType"] as? String == "fixity check")
        let ok = try TrustReverifyLogTests.cli(["log", "--verify", "--archive", archive])
        #expect(ok.status == 0)
        #expect(ok.out.contains("custody log: 5 events, chain intact"))

        // Change a v1 and a v2 event in place: both are named.
        let store = try ContentStore.open(at: archive)
        let log = try CustodyLog(environment: store.environment)
        var v1 = try stored(log, 2), v2 = try stored(log, 4)
        v1.outcomeDetail += " (edited)"
        v2.outcomeDetail += " (edited)"
        try put(log, v1, at: 2)
        try put(log, v2, at: 4)
        let broken = try TrustReverifyLogTests.cli(["log", "--verify", "--archive", archive])
        #expect(broken.status == 1)
        #expect(broken.out.hasPrefix("changed 2:"))
        #expect(broken.out.contains("\nchanged 4:"))
    }
}
