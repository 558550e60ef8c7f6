import ArchiveLMDB
import CAS
import Crypto
import Foundation
import Ground
import Ingest
import LMDB
import Query
import TestLiterals
import Testing

/// The `trust`, `reverify`, `log` and `audit` commands end to end (the CLI binary).
@Suite struct TrustReverifyLogTests {
    struct Output {
        let status: Int32
        let out: String
    }

    static func cli(_ args: [String]) throws -> Output {
        let binary = try #require(IngestKillTests.binary(), "build the exhibit-archive product first")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        p.environment = ["PATH": "/usr/bin:/bin", "USER": "auditor"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Output(status: p.terminationStatus, out: String(decoding: data, as: UTF8.self))
    }

    static func lines(_ o: Output) -> [[String: Any]] {
        o.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func trustChangesReverifyAndTheLog() throws {
        let dump = try DumpFixture.small.get()
        let archive = DumpFixture.scratch("trust") + "/archive"
        let signerPEM = dump.root + "/" + dump.expected.signerRoot
        #expect(try Self.cli(["init", "--archive", archive]).status == 0)
        // No anchors: every signed capture is untrusted.
        let first = Self.lines(try Self.cli(["ingest", "--archive", archive, "--json", dump.root]))
        let captures = first.filter { $0["type"] as? String == "capture" }
        #expect(captures.count == dump.expected.captures.count)
        #expect(captures.allSatisfy { ($0["trust"] as? String) != "trusted" })
        #expect(first.last?["type"] as? String == "summary")

        #expect(try Self.cli(["trust", "add", signerPEM, "--archive", archive]).status == 0)
        #expect(try Self.cli(["trust", "add", signerPEM, "--archive", archive]).status == 1)  // already there
        let listed = try Self.cli(["trust", "list", "--archive", archive])
        #expect(listed.out.split(separator: "\n").count == 1 && listed.out.hasPrefix("signer "))

        // Reverify from the stored bytes: the CA-issued signers become trusted.
        let shouldTrust = Set(dump.expected.captures.filter { $0.trust == "trusted" }.compactMap(\.claimSHA256))
        #expect(!shouldTrust.isEmpty)
        let re = Self.lines(try Self.cli(["reverify", "--archive", archive, "--json"]))
        let records = re.filter { $0["type"] as? String == "record" }
        #expect(records.allSatisfy { $0["error"] == nil })
        let trustedNow = Set(records.filter { $0["trust"] as? String == "trusted" }.compactMap { $0["recordId"] as? String })
        #expect(trustedNow == shouldTrust)
        #expect(records.filter { $0["changed"] as? Bool == true }.count == shouldTrust.count)
        // The index answers with the new trust.
        let store = try LMDBArchive(store: ContentStore.open(at: archive))
        #expect(Set(try store.index.query(RecordFilter(trust: "trusted")).matches.map(\.hex)) == shouldTrust)

        // A filtered reverify after removing the anchor: only the trusted ones, back to untrusted.
        #expect(try Self.cli(["trust", "remove", signerPEM, "--archive", archive]).status == 0)
        let back = Self.lines(try Self.cli(["reverify", "--trust", "trusted", "--archive", archive, "--json"]))
        #expect(back.filter { $0["type"] as? String == "record" }.count == shouldTrust.count)
        #expect(back.filter { $0["trust"] as? String == "untrusted" }.count == shouldTrust.count)

        // The log: per record, ingest events then the two reverify validations.
        let id = try #require(shouldTrust.first)
        let events = Self.lines(try Self.cli(["log", "--record", id, "--archive", archive, "--json"]))
        let types = events.compactMap { $0["eventType"] as? String }
        let validations = events.filter { $0["eventType"] as? String == "validation" }.compactMap { $0["outcomeDetail"] as? String }
        #expect(validations.filter { $0.hasPrefix("reverify") }.count == 2)
        #expect(validations.filter { $0.hasPrefix("integrity") }.count >= 1)  // at ingest (one per variant)
        #expect(types.contains("ingestion") && types.contains("message digest calculation"))
        #expect(events.allSatisfy { $0["operator"] as? String == "auditor" })
        #expect(events.first?["eventTypeURI"] as? String == "http://id.loc.gov/vocabulary/preservation/eventType/mes")

        // Audit appends a fixity check; trust changes were metadata modifications.
        #expect(try Self.cli(["audit", "--archive", archive]).status == 0)
        let all = Self.lines(try Self.cli(["log", "--archive", archive, "--json"]))
        #expect(all.last?["eventType"] as? String == "fixity check")
        #expect(all.filter { $0["eventType"] as? String == "metadata modification" }.count == 2)
        #expect(try Self.cli(["log", "--verify", "--archive", archive]).status == 0)

        // Change one stored event: log --verify names it and exits 1.
        let seq = try #require(all[3]["seq"] as? Int)
        let custody = store.custody
        try custody.environment.write { txn in
            let events = try custody.allEvents(in: txn)
            var e = events[3]
            e.outcomeDetail += " (edited)"
            let key: [UInt8] = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(seq) >> UInt64(56 - 8 * $0)) }
            let db = try custody.environment.database("custody.events")
            _ = try txn.put(db, key, e.canonicalBytes() + (Crypto.Hex.decode(e.hash) ?? []))
        }
        let broken = try Self.cli(["log", "--verify", "--archive", archive])
        #expect(broken.status == 1)
        #expect(broken.out.hasPrefix("changed \(seq):"))
    }
}
