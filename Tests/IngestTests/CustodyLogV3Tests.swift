@testable import ArchiveLMDB
import CAS
import Crypto
@testable import Custody
import Foundation
import LMDB
import Testing
@testable import Ingest

/// Custody log format v3: v2 with the organization the operator acted for (PREMIS's "for
/// whom" agent). An agent that states an organization gets v3; one that does not gets v2, byte
/// for byte as before; a chain of v1, v2 and v3 events verifies, each by its own rule.
@Suite struct CustodyLogV3Tests {
    static let organized = CustodyAgent(operator: "tester", tool: .init(name: "exhibit-archive", version: "t"), host: "h",
                                        organization: "County Evidence Unit")

    static func append(_ log: CustodyLog, _ agent: CustodyAgent, _ i: Int) throws {
        try log.environment.write { txn in
            _ = try log.append(CustodyDraft(.dissemination, agent: agent, objects: [CustodyEvent.Object(kind: "record", id: "r\(i)"), CustodyEvent.Object(kind: "blob", id: "b\(i)")],
                                        detail: "event \(i)", time: Date(timeIntervalSince1970: Double(i))), in: txn)
        }
    }

    /// The documented v3 bytes, built by hand: body (organization after the operator), body
    /// hash, header, stored value.
    @Test func v3HashBytesByHand() throws {
        let log = try CustodyLog(environment: CustodyLogV2Tests.environment())
        try Self.append(log, Self.organized, 1)
        let e = try #require(try log.allEvents().first)
        #expect(e.version == .v3 && e.organization == "County Evidence Unit")
        let salt = try #require(e.salt)
        var body: [UInt8] = []
        for f in ["exhibit-custody-body/3", salt, "1970-01-01T00:00:01.000Z", "dissemination", "tester", "County Evidence Unit",
                  "exhibit-archive", "t", "h", "2", "record", "r1", "blob", "b1", "success", "event 1"] { body += CustodyLogV2Tests.field(f) }
        #expect(e.bodyBytes() == body)
        let bodyHash = Hex.encode(MessageDigest.sha256(body))
        #expect(e.computedBodyHash() == bodyHash)
        var header: [UInt8] = []
        for f in ["exhibit-custody/3", "1", CustodyEvent.genesisHash, bodyHash] { header += CustodyLogV2Tests.field(f) }
        #expect(e.hashedBytes() == header)
        #expect(e.hash == Hex.encode(MessageDigest.sha256(header)))
        let stored = CustodyLogV2Tests.field("exhibit-custody/3") + CustodyLogV2Tests.field("1")
            + CustodyLogV2Tests.field(CustodyEvent.genesisHash) + body + Hex.decode(e.hash)!
        #expect(e.storedBytes() == stored)
        #expect(try stored.withUnsafeBytes { try CustodyEvent(stored: $0) } == e)
        #expect(e.eventType.uri == "http://id.loc.gov/vocabulary/preservation/eventType/dis")
        #expect(CustodyEvent.EventType.digitalSignatureGeneration.uri == "http://id.loc.gov/vocabulary/preservation/eventType/dsg")
        // The same event as v2 (no organization field): another body, another hash.
        var v2 = e
        v2.version = .v2
        #expect(v2.bodyBytes() != body && v2.computedHash() != e.hash)
    }

    @Test func versionFollowsTheAgent() throws {
        let env = try CustodyLogV2Tests.environment()
        let v1 = try CustodyLog(environment: env, eventVersion: .v1)
        try Self.append(v1, Self.organized, 1)                          // v1 writer: v1, no organization
        let log = try CustodyLog(environment: env)
        try Self.append(log, CustodyLogV2Tests.agent, 2)                 // no organization: v2
        try Self.append(log, Self.organized, 3)                          // organization: v3
        var empty = Self.organized
        empty.organization = ""
        try Self.append(log, empty, 4)                                   // empty: not stated, v2
        let all = try log.allEvents()
        #expect(all.map(\.version) == [.v1, .v2, .v3, .v2])
        #expect(all.map(\.organization) == [nil, nil, "County Evidence Unit", nil])
        #expect(try log.verify() == CustodyVerification(events: 4, headSeq: 4, problems: []))
        // An edited organization no longer hashes: the event is named.
        var edited = all[2]
        edited.organization = "Someone Else"
        try env.write { txn in _ = try txn.put(log.events, CustodyLog.key(3), edited.storedBytes()) }
        #expect(try log.verify().problems.map { "\($0.kind) \($0.seq)" } == ["changed 3"])
    }

    @Test func agentFromEnvironment() {
        let a = CustodyAgent.current(operator: "x", environment: ["EXHIBIT_ORGANIZATION": "Env Org"])
        #expect(a.organization == "Env Org")
        #expect(CustodyAgent.current(operator: "x", organization: "Flag Org", environment: ["EXHIBIT_ORGANIZATION": "Env Org"]).organization == "Flag Org")
        #expect(CustodyAgent.current(operator: "x", environment: [:]).organization == nil)
    }
}
