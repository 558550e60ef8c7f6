import ArchiveLMDB
import Crypto
import Custody
import Export
import Foundation
import Ground
import Ingest
import Query
import TestLiterals
import Testing

/// Custody chain proof /2: events about other records ship redacted, the bag reveals none of
/// their details, the chain still checks, and tampering with redacted events is named.
@Suite struct RedactionTests {
    static let secretAgent = CustodyAgent(operator: "source-desk-kowalczyk", tool: .init(name: "exhibit-archive", version: "0.5.0"),
                                          host: "newsroom-vault-7")
    static let trustAgent = CustodyAgent(operator: "trust-admin-okafor", tool: .init(name: "exhibit-archive", version: "0.5.0"),
                                         host: "settings-host-9")
    static let anchor = String(repeating: "ab", count: 32)

    /// c1 (exported), o1 and o2 (other records, another operator and host), a trust change,
    /// c2 (exported); then the export of c1 and c2.
    struct Scenario {
        let fixture: ExportFixture
        let bag: String
        let exported: [IndexedRecordIDs]
        let others: [IndexedRecordIDs]
    }

    struct IndexedRecordIDs {
        let recordId: String
        let blobIds: [String]
    }

    static func ids(_ r: IndexedRecord) -> IndexedRecordIDs {
        IndexedRecordIDs(recordId: r.recordId.hex, blobIds: r.variants.map(\.blobId.hex) + r.files.map(\.blobId.hex))
    }

    static func scenario() throws -> Scenario {
        let f = try ExportFixture()
        let c1 = try f.addCapture("c1", seed: 1)
        let o1 = try f.addCapture("o1", seed: 3, agent: secretAgent)
        try f.store.environment.write { txn in
            _ = try f.log.append(CustodyDraft(.metadataModification, agent: trustAgent, objects: [.anchor(anchor)],
                                              detail: "added signer anchor CN=Confidential Source Device CA"), in: txn)
        }
        let o2 = try f.addCapture("o2", seed: 4, agent: secretAgent)
        let c2 = try f.addCapture("c2", seed: 2)
        let out = f.root + "/bag"
        _ = try f.exporter().export([c1, c2], options: f.options(out))
        return Scenario(fixture: f, bag: out, exported: [ids(c1), ids(c2)], others: [ids(o1), ids(o2)])
    }

    static func document(_ bag: String) throws -> CustodyDocument {
        try CustodyDocument.decoder().decode(CustodyDocument.self, from: Data(contentsOf: URL(fileURLWithPath: bag + "/custody.json")))
    }

    static func write(_ doc: CustodyDocument, _ bag: String) throws {
        try CustodyDocument.encoder().encode(doc).write(to: URL(fileURLWithPath: bag + "/custody.json"))
        try TamperTests.rewriteTagManifest(bag)
    }

    /// Every file of the bag, as bytes.
    static func bagFiles(_ bag: String) throws -> [(String, [UInt8])] {
        let e = try #require(FileManager.default.enumerator(atPath: bag))
        var out: [(String, [UInt8])] = []
        while let p = e.nextObject() as? String {
            var dir: ObjCBool = false
            if FileManager.default.fileExists(atPath: bag + "/" + p, isDirectory: &dir), dir.boolValue { continue }
            out.append((p, Array(try Data(contentsOf: URL(fileURLWithPath: bag + "/" + p)))))
        }
        return out
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard !n.isEmpty, haystack.count >= n.count else { return false }
        for i in 0...(haystack.count - n.count) where haystack[i] == n[0] && Array(haystack[i ..< i + n.count]) == n { return true }
        return false
    }

    @Test func otherRecordsEventsShipRedactedAndTheBagRevealsNoneOfThem() throws {
        let s = try Self.scenario()
        defer { withExtendedLifetime(s.fixture) {} }
        let doc = try Self.document(s.bag)
        let chain = try #require(doc.custodyChain)
        #expect(chain.format == "exhibit-custody-chain/2")
        // 1 c1, 2 o1, 3 trust change, 4 o2, 5 c2, 6 replication.
        #expect(chain.events.map(\.seq) == [1, 2, 3, 4, 5, 6])
        #expect(chain.events.map(\.isRedacted) == [false, true, true, true, false, false])
        #expect(chain.check() == [])
        #expect(doc.records.map(\.custodyEvents) == [[1, 6], [5, 6]])
        // Redacted entries carry exactly seq, version, prevHash, bodyHash, hash (and the flag).
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: s.bag + "/custody.json"))) as? [String: Any])
        let events = try #require((json["custodyChain"] as? [String: Any])?["events"] as? [[String: Any]])
        #expect(Set(events[1].keys) == ["seq", "version", "prevHash", "bodyHash", "hash", "redacted"])
        #expect(events[1]["redacted"] as? Bool == true && events[1]["version"] as? Int == 2)
        #expect(events[0]["redacted"] as? Bool == false && events[0]["salt"] is String && events[0]["operator"] as? String == "ingest-operator")

        // The whole bag (payload, custody.json, custody.jsonld, report.html, bag-info, manifests)
        // names none of the other records, their files, their operator or host, the anchor.
        var secrets = [Self.secretAgent.operator, Self.secretAgent.host, Self.trustAgent.operator, Self.trustAgent.host,
                       Self.anchor, "Confidential Source Device CA", "captures/o1", "captures/o2"]
        for o in s.others { secrets += [o.recordId] + o.blobIds }
        let files = try Self.bagFiles(s.bag)
        #expect(files.count > 10)
        for (path, bytes) in files {
            for secret in secrets { #expect(!Self.contains(bytes, secret), "\(path) reveals \(secret)") }
        }
        // The exported records are there, with their own events.
        let custodyBytes = try #require(files.first { $0.0 == "custody.json" }?.1)
        for r in s.exported { #expect(Self.contains(custodyBytes, r.recordId)) }
        let report = try String(contentsOfFile: s.bag + "/report.html", encoding: .utf8)
        #expect(report.contains("3 event(s) about other records or archive settings, shipped redacted"))

        // verify-export: valid; bagit-python: valid.
        let result = BagVerifier(bag: s.bag).verify()
        #expect(result.findings == [])
        #expect(result.custodyEvents == 6)
        #expect(result.redactedCustodyEvents == 3)
        let python = try #require(bagitPython(), "no Python venv with bagit-python (.venv or /tmp/venvtest)")
        let (code, text) = try ExportFixture.run(python, ["-m", "bagit", "--validate", s.bag])
        #expect(code == 0, "bagit --validate: \(text)")

        // Later disclosure: the archive's full event 2 hashes to the bag's bodyHash.
        let full = try s.fixture.log.allEvents()
        guard case .redacted(let r) = chain.events[1] else { Issue.record("event 2 not redacted"); return }
        #expect(full[1].computedBodyHash() == r.bodyHash)
        #expect(full[1].hash == r.hash)
        #expect(try s.fixture.log.verify().isIntact)
    }

    /// A v1 archive that went on as v2: v1 events about other records ship whole with a note,
    /// v2 ones redacted; the bag verifies.
    @Test func mixedChainShipsV1EventsWhole() throws {
        let f = try ExportFixture()
        let v2 = f.log
        f.log = try CustodyLog(environment: f.store.environment, eventVersion: .v1)
        let c1 = try f.addCapture("c1", seed: 1)
        let o1 = try f.addCapture("o1", seed: 3, agent: Self.secretAgent)
        f.log = v2
        let o2 = try f.addCapture("o2", seed: 4, agent: Self.secretAgent)
        let c2 = try f.addCapture("c2", seed: 2)
        let out = f.root + "/bag"
        _ = try f.exporter().export([c1, c2], options: f.options(out))
        // The log: the five events of the chain, then the export's digital signature generation (v2).
        #expect(try f.log.allEvents().map(\.version) == [.v1, .v1, .v2, .v2, .v2, .v2])
        #expect(try f.log.verify().isIntact)
        let chain = try #require(try Self.document(out).custodyChain)
        #expect(chain.events.map(\.version) == [.v1, .v1, .v2, .v2, .v2])
        #expect(chain.events.map(\.isRedacted) == [false, false, true, false, false])
        guard case .whole(let e2, let note) = chain.events[1] else { Issue.record("event 2 redacted"); return }
        #expect(e2.objects.first == .record(o1.recordId))
        #expect(note == CustodyChain.v1Note)
        guard case .whole(_, let ownNote) = chain.events[0] else { Issue.record("event 1 redacted"); return }
        #expect(ownNote == nil)
        #expect(chain.events[2].prevHash == chain.events[1].hash)
        let custody = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/custody.json")))
        #expect(Self.contains(custody, o1.recordId.hex))   // v1: cannot be hidden
        #expect(!Self.contains(custody, o2.recordId.hex))  // v2: hidden
        #expect(BagVerifier(bag: out).verify().findings == [])
    }

    // MARK: Tampering with a /2 proof (tag manifest recomputed as a forger would)

    /// Edits custody.json's chain in a fresh scenario's bag, recomputes the tag manifest, and
    /// returns what verify-export finds (the signature always breaks: `signature.invalid` first).
    static func tampered(_ edit: (inout CustodyChain) throws -> Void) throws -> [BagFinding] {
        let s = try scenario()
        defer { withExtendedLifetime(s.fixture) {} }
        var doc = try document(s.bag)
        var chain = try #require(doc.custodyChain)
        try edit(&chain)
        doc.custodyChain = chain
        try write(doc, s.bag)
        return BagVerifier(bag: s.bag).verify().findings
    }

    static func redacted(_ chain: CustodyChain, _ index: Int) throws -> CustodyChain.Entry.Redacted {
        guard case .redacted(let r) = chain.events[index] else { throw FixtureError("event \(index + 1) is not redacted") }
        return r
    }

    static func v2Hash(_ r: CustodyChain.Entry.Redacted) -> String {
        Hex.encode(MessageDigest.sha256(CustodyEvent.hashedBytesV2(seq: r.seq, prevHash: r.prevHash, bodyHash: r.bodyHash)))
    }

    @Test func changedBodyHashOfARedactedEventIsNamed() throws {
        let findings = try Self.tampered { chain in
            var r = try Self.redacted(chain, 2)
            r.bodyHash = Hex.encode(MessageDigest.sha256(Array("another body".utf8)))
            chain.events[2] = .redacted(r)
        }
        #expect(findings.map(\.code) == ["signature.invalid", "custody.eventTampered"])
        #expect(findings.last?.sequence == 3)
        // The same with the hash recomputed: the next event's link names it.
        let again = try Self.tampered { chain in
            var r = try Self.redacted(chain, 2)
            r.bodyHash = Hex.encode(MessageDigest.sha256(Array("another body".utf8)))
            r.hash = Self.v2Hash(r)
            chain.events[2] = .redacted(r)
        }
        #expect(again.map(\.code) == ["signature.invalid", "custody.chainBroken"])
        #expect(again.last?.sequence == 4)
    }

    @Test func changedPrevHashOfARedactedEventIsNamed() throws {
        let findings = try Self.tampered { chain in
            var r = try Self.redacted(chain, 1)
            r.prevHash = String(repeating: "0", count: 64)
            chain.events[1] = .redacted(r)
        }
        #expect(findings.map(\.code) == ["signature.invalid", "custody.eventTampered", "custody.chainBroken"])
        #expect(findings.dropFirst().map(\.sequence) == [2, 2])
    }

    @Test func changedSaltOfAWholeEventIsNamed() throws {
        let findings = try Self.tampered { chain in
            var e = try #require(chain.events[4].event)
            var salt = try #require(e.salt.flatMap(Hex.decode))
            salt[15] ^= 0x80
            e.salt = Hex.encode(salt)
            chain.events[4] = .whole(e)
        }
        #expect(findings.map(\.code) == ["signature.invalid", "custody.eventTampered"])
        #expect(findings.last?.sequence == 5)
        #expect(findings.last?.detail.contains("custody event 5 (ingestion)") == true)
    }

    @Test func removedRedactedEventIsNamed() throws {
        let findings = try Self.tampered { chain in _ = chain.events.remove(at: 2) }
        #expect(findings.map(\.code) == ["signature.invalid", "custody.sequenceGap", "custody.chainBroken"])
        #expect(findings.dropFirst().map(\.sequence) == [4, 4])
    }

    /// A forged redacted event, self-consistent and linked to the one before, inserted in place.
    @Test func insertedRedactedEventIsNamed() throws {
        let findings = try Self.tampered { chain in
            let before = chain.events[2]
            var forged = CustodyChain.Entry.Redacted(seq: before.seq + 1, version: .v2, prevHash: before.hash,
                                                      bodyHash: Hex.encode(MessageDigest.sha256(Array("forged".utf8))), hash: "")
            forged.hash = Self.v2Hash(forged)
            chain.events.insert(.redacted(forged), at: 3)
        }
        #expect(findings.map(\.code) == ["signature.invalid", "custody.sequenceGap", "custody.chainBroken"])
        #expect(findings.dropFirst().map(\.sequence) == [4, 4])
    }

    /// Hiding an exported record's own event behind a (hash-valid) redaction is named.
    @Test func redactedOwnEventIsNamed() throws {
        let findings = try Self.tampered { chain in
            let e = try #require(chain.events[0].event)
            chain.events[0] = .redacted(.init(seq: e.seq, version: e.version, prevHash: e.prevHash,
                                              bodyHash: try #require(e.computedBodyHash()), hash: e.hash))
            #expect(chain.check() == [])
        }
        #expect(findings.map(\.code) == ["signature.invalid", "custody.eventRedacted"])
        #expect(findings.last?.sequence == 1)
    }

    /// `CustodyChain.check()` on redactions no exporter writes: a redacted v1 event, a
    /// malformed bodyHash, a redacted entry or a v2 event in a /1 chain.
    @Test func impossibleRedactionsAreTampered() throws {
        let f = try ExportFixture()
        let v2 = f.log
        f.log = try CustodyLog(environment: f.store.environment, eventVersion: .v1)
        let agent = Self.secretAgent
        try f.store.environment.write { txn in
            _ = try f.log.append(CustodyDraft(.ingestion, agent: agent, objects: [.init(kind: "record", id: "a")], detail: "v1"), in: txn)
            _ = try v2.append(CustodyDraft(.ingestion, agent: agent, objects: [.init(kind: "record", id: "b")], detail: "v2"), in: txn)
            _ = try v2.append(CustodyDraft(.replication, agent: agent, objects: [.init(kind: "record", id: "a")], detail: "export"), in: txn)
        }
        let events = try v2.allEvents()
        let full = CustodyChain(events: events, headSequence: 3, headHash: events[2].hash)
        let shipped = full.redacting(keepingEventsNaming: ["a"], andSequences: [3])
        #expect(shipped.events.map(\.isRedacted) == [false, true, false])
        #expect(shipped.check() == [])
        func codes(_ chain: CustodyChain) -> [String] { chain.check().map { "\($0.code) \($0.sequence ?? 0)" } }

        var v1Redacted = shipped
        let e1 = events[0]
        v1Redacted.events[0] = .redacted(.init(seq: 1, version: .v1, prevHash: e1.prevHash,
                                               bodyHash: Hex.encode(MessageDigest.sha256(e1.canonicalBytes())), hash: e1.hash))
        #expect(codes(v1Redacted) == ["custody.eventTampered 1"])

        var upper = shipped
        var r = try Self.redacted(shipped, 1)
        r.bodyHash = r.bodyHash.uppercased()
        upper.events[1] = .redacted(r)
        #expect(codes(upper) == ["custody.eventTampered 2"])

        var asV1 = shipped
        asV1.format = CustodyChain.formatV1
        #expect(codes(asV1) == ["custody.eventTampered 2", "custody.eventTampered 3"])
        asV1.events = full.events
        #expect(codes(asV1) == ["custody.eventTampered 2", "custody.eventTampered 3"])

        var unknown = shipped
        unknown.format = "exhibit-custody-chain/3"
        #expect(codes(unknown) == ["custody.unknownFormat 0"])
    }

    // MARK: /1 bags

    /// A bag as the /1 exporter wrote it (v1 events, all whole, no `version`/`redacted` keys,
    /// format `exhibit-custody-chain/1`), signed by the archive key: still valid; an edited
    /// event in it is still named.
    @Test func formatOneBagsStillVerify() throws {
        let f = try ExportFixture()
        f.log = try CustodyLog(environment: f.store.environment, eventVersion: .v1)
        let c1 = try f.addCapture("c1", seed: 1)
        try f.addCapture("o1", seed: 3, agent: Self.secretAgent)
        let out = f.root + "/bag"
        _ = try f.exporter().export([c1], options: f.options(out))
        let url = URL(fileURLWithPath: out + "/custody.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var chain = try #require(json["custodyChain"] as? [String: Any])
        var events = try #require(chain["events"] as? [[String: Any]])
        #expect(events.map { $0["redacted"] as? Bool } == [false, false, false])
        #expect(events[1]["note"] as? String == CustodyChain.v1Note)
        events = events.map { var e = $0; e["version"] = nil; e["redacted"] = nil; e["note"] = nil; return e }
        chain["events"] = events
        chain["format"] = "exhibit-custody-chain/1"
        json["custodyChain"] = chain
        func sign(_ object: [String: Any]) throws {
            let bytes = Array(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) + [0x0A]
            try Data(bytes).write(to: url)
            try Data(try CustodySignature.sign(bytes, with: f.key)).write(to: URL(fileURLWithPath: out + "/custody.cose"))
            try TamperTests.rewriteTagManifest(out)
        }
        try sign(json)
        let doc = try Self.document(out)
        #expect(doc.custodyChain?.format == "exhibit-custody-chain/1")
        #expect(doc.custodyChain?.events.map(\.version) == [.v1, .v1, .v1])
        #expect(BagVerifier(bag: out).verify().findings == [])

        // Edited (and validly re-signed): the /1 chain check names the event.
        events[1]["outcomeDetail"] = "edited"
        chain["events"] = events
        json["custodyChain"] = chain
        try sign(json)
        let findings = BagVerifier(bag: out).verify().findings
        #expect(findings.map(\.code) == ["custody.eventTampered"])
        #expect(findings.first?.sequence == 2)
    }
}
