import Crypto
import Export
import Foundation
import Ground
import Ingest
import TestLiterals
import Testing

/// verify-export names each tamper: one test each, over a bag that verified clean first.
@Suite struct TamperTests {
    /// A fresh exported bag of two captures, verified clean.
    static func bag() throws -> (ExportFixture, String) {
        let f = try ExportFixture()
        try f.addCapture("c1", seed: 1)
        try f.addCapture("c2", seed: 2)
        let out = f.root + "/bag"
        _ = try f.exporter().export(f.records, options: f.options(out))
        #expect(BagVerifier(bag: out).verify().findings == [])
        return (f, out)
    }

    static func flipByte(_ path: String, at offset: Int? = nil) throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let i = offset ?? bytes.count / 2
        bytes[i] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func flippedPayloadByteIsNamed() throws {
        let (f, out) = try Self.bag()
        defer { withExtendedLifetime(f) {} }
        let audio = "data/\(f.records[0].recordId)/evidence/audio.caf"
        try Self.flipByte(out + "/" + audio)
        let findings = BagVerifier(bag: out).verify().findings
        #expect(findings.map(\.code) == ["bag.payloadChanged"])
        #expect(findings.first?.path == audio)
    }

    @Test func flippedTagByteIsNamed() throws {
        let (fixture, out) = try Self.bag()
        defer { withExtendedLifetime(fixture) {} }
        // A byte of report.html: covered only by the tag manifest.
        try Self.flipByte(out + "/report.html", at: 20)
        let findings = BagVerifier(bag: out).verify().findings
        #expect(findings.map(\.code) == ["bag.tagFileChanged"])
        #expect(findings.first?.path == "report.html")
    }

    @Test func flippedCustodyByteBreaksTheSignature() throws {
        let (fixture, out) = try Self.bag()
        defer { withExtendedLifetime(fixture) {} }
        let json = try String(contentsOfFile: out + "/custody.json", encoding: .utf8)
        // One byte of a record's ingest time (a field no custody event repeats).
        let range = try #require(json.range(of: "\"ingestTime\" : \"20"))
        try json.replacingCharacters(in: range, with: "\"ingestTime\" : \"19")
            .write(toFile: out + "/custody.json", atomically: true, encoding: .utf8)
        let codes = Set(BagVerifier(bag: out).verify().findings.map(\.code))
        #expect(codes == ["bag.tagFileChanged", "signature.invalid"])
    }

    @Test func removedFileIsNamed() throws {
        let (f, out) = try Self.bag()
        defer { withExtendedLifetime(f) {} }
        let sensors = "data/\(f.records[1].recordId)/evidence/sensors.jsonl"
        try FileManager.default.removeItem(atPath: out + "/" + sensors)
        let findings = BagVerifier(bag: out).verify().findings
        #expect(findings.map(\.code) == ["bag.payloadMissing", "bag.oxumMismatch"])
        #expect(findings.first?.path == sensors)
    }

    @Test func addedFileIsNamed() throws {
        let (f, out) = try Self.bag()
        defer { withExtendedLifetime(f) {} }
        let extra = "data/\(f.records[0].recordId)/evidence/extra.txt"
        _ = FileManager.default.createFile(atPath: out + "/" + extra, contents: Data("planted".utf8))
        let findings = BagVerifier(bag: out).verify().findings
        #expect(findings.map(\.code) == ["bag.payloadUnlisted", "bag.oxumMismatch"])
        #expect(findings.first?.path == extra)
        // An added tag file is named too.
        _ = FileManager.default.createFile(atPath: out + "/notes.txt", contents: Data("x".utf8))
        #expect(BagVerifier(bag: out).verify().findings.contains { $0.code == "bag.tagFileUnlisted" && $0.path == "notes.txt" })
    }

    /// A custody event edited inside custody.json, with the manifests recomputed so that only
    /// the signature and the chain can tell: the chain check names the event by sequence.
    @Test func tamperedCustodyEventIsNamed() throws {
        let (fixture, out) = try Self.bag()
        defer { withExtendedLifetime(fixture) {} }
        let url = URL(fileURLWithPath: out + "/custody.json")
        var doc = try CustodyDocument.decoder().decode(CustodyDocument.self, from: Data(contentsOf: url))
        var chain = try #require(doc.custodyChain)
        var event = try #require(chain.events[1].event)
        #expect(event.eventType == .ingestion)
        event.operator = "someone else"
        chain.events[1] = .whole(event)
        doc.custodyChain = chain
        let encoder = CustodyDocument.encoder()
        let bytes = try encoder.encode(doc)
        try bytes.write(to: url)
        try Self.rewriteTagManifest(out)
        let findings = BagVerifier(bag: out).verify().findings
        #expect(findings.map(\.code) == ["signature.invalid", "custody.eventTampered"])
        #expect(findings.last?.sequence == 2)
        #expect(findings.last?.detail.contains("custody event 2 (ingestion)") == true)

        // Re-hashing the edited event moves the break to the link after it.
        event.hash = event.computedHash()
        chain.events[1] = .whole(event)
        doc.custodyChain = chain
        try encoder.encode(doc).write(to: url)
        try Self.rewriteTagManifest(out)
        let again = BagVerifier(bag: out).verify().findings
        #expect(again.map(\.code) == ["signature.invalid", "custody.chainBroken"])
        #expect(again.last?.sequence == 3)
    }

    /// A validly signed custody.json of another export of the same records, swapped in: the
    /// signature holds, the bag identity does not.
    @Test func custodyFromAnotherBagIsNamed() throws {
        let (f, out) = try Self.bag()
        defer { withExtendedLifetime(f) {} }
        let other = f.root + "/other"
        _ = try f.exporter().export(f.records, options: f.options(other))
        for name in ["custody.json", "custody.cose"] {
            try FileManager.default.removeItem(atPath: out + "/" + name)
            try FileManager.default.copyItem(atPath: other + "/" + name, toPath: out + "/" + name)
        }
        try Self.rewriteTagManifest(out)
        let findings = BagVerifier(bag: out).verify().findings
        #expect(findings.map(\.code) == ["custody.bagMismatch"])
    }

    /// Recomputes tagmanifest-sha256.txt as a forger would.
    static func rewriteTagManifest(_ out: String) throws {
        let path = out + "/tagmanifest-sha256.txt"
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line -> String in
            let name = String(line.split(separator: " ", maxSplits: 1)[1].drop { $0 == " " })
            let data = (try? Data(contentsOf: URL(fileURLWithPath: out + "/" + name))) ?? Data()
            return Hex.encode(MessageDigest.sha256(data)) + "  " + name
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
