import CAS
import Crypto
import Export
import Foundation
import Ground
import Ingest
import TestLiterals
import Testing
import Verify

@Suite struct BagExportTests {
    @Test func exportedBagValidatesUnderBagitPython() throws {
        let f = try ExportFixture()
        try f.addCapture("c1", seed: 1)
        try f.addCapture("c2", seed: 2)
        let out = f.root + "/bag"
        let summary = try f.exporter().export(f.records, options: f.options(out))
        #expect(summary.records == 2)
        // Media + audio + sensors per record.
        #expect(summary.files == 6)
        #expect(summary.replicationEvent == 3)
        let python = try #require(bagitPython(), "no Python venv with bagit-python (.venv or /tmp/venvtest)")
        let (code, text) = try ExportFixture.run(python, ["-m", "bagit", "--validate", out])
        #expect(code == 0, "bagit --validate: \(text)")
        #expect(text.contains("is valid"))

        // Every payload file is byte-identical to the stored blob.
        for record in f.records {
            for variant in record.variants {
                let name = (variant.sourcePaths[0] as NSString).lastPathComponent
                let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(out)/data/\(record.recordId)/\(name)"))
                #expect(Hex.encode(MessageDigest.sha256(bytes)) == variant.blobId.hex)
            }
            for file in record.files {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(out)/data/\(record.recordId)/\(file.relativePath)"))
                #expect(Hex.encode(MessageDigest.sha256(bytes)) == file.blobId.hex)
            }
        }
        let info = try String(contentsOfFile: out + "/bag-info.txt", encoding: .utf8)
        let bytes = summary.bytes
        #expect(info.contains("Payload-Oxum: \(bytes).6\n"))
        #expect(info.contains("Exhibit-Case: State v. Example\n"))
        #expect(info.contains("External-Identifier: \(summary.externalIdentifier)\n"))
        #expect(info.contains("Source-Organization: Exhibit Archive\n"))
        #expect(info.contains("Bag-Size: "))
        let tags = try String(contentsOfFile: out + "/tagmanifest-sha256.txt", encoding: .utf8)
        for name in ["bagit.txt", "bag-info.txt", "manifest-sha256.txt", "custody.json", "custody.cose",
                     "custody.jsonld", "report.html", "archive-cert.pem"] {
            #expect(tags.contains("  \(name)\n"), "tagmanifest lists \(name)")
        }
        // The verifier agrees and the signature is the archive key's.
        let result = BagVerifier(bag: out).verify()
        #expect(result.findings == [])
        #expect(result.keyFingerprint == f.key.fingerprint)
        #expect(result.payloadFiles == 6)
    }

    @Test func custodyJSONHoldsBothVerificationsAndTheChainToTheHead() throws {
        let f = try ExportFixture()
        let record = try f.addCapture("c1")
        let out = f.root + "/bag"
        _ = try f.exporter().export([record], options: f.options(out))
        let doc = try CustodyDocument.decoder().decode(CustodyDocument.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/custody.json")))
        #expect(doc.export.operatorName == "Test Operator")
        #expect(doc.export.toolVersion == "0.5.0-test")
        #expect(doc.export.caseName == "State v. Example")
        #expect(doc.export.archiveKeyFingerprint == f.key.fingerprint)
        let r = try #require(doc.records.first)
        #expect(r.recordId == record.recordId)
        #expect(r.verificationAtIngest?.integrity == .intact)
        #expect(r.verificationAtExport.state == "done")
        #expect(r.verificationAtExport.report?.integrity == .intact)
        #expect(r.verificationAtExport.report?.signer?.trust == .trusted)
        #expect(r.verificationAtExport.changes == [])
        // The fresh report read the bag's copies, not the dump.
        #expect(r.verificationAtExport.report?.path == "data/\(record.recordId)/IMG_c1.jpg")
        #expect(r.sidecars["audio"] == "verified")
        #expect(r.sidecars["sensors"] == "verified")
        let chain = try #require(doc.custodyChain)
        #expect(chain.events.map(\.seq) == [1, 2])
        // Exports are logged as dissemination (issue 18; docs/export.md says why).
        #expect(chain.events.map { $0.event?.eventType } == [.ingestion, .dissemination])
        #expect(chain.format == "exhibit-custody-chain/2")
        #expect(chain.events.map(\.version) == [.v2, .v2])
        #expect(r.custodyEvents == [1, 2])
        #expect(chain.headSequence == 2)
        #expect(chain.check() == [])
        // The archive's log holds the dissemination event, then the signing of custody.json,
        // and still verifies.
        let events = try f.log.allEvents()
        #expect(events.dropLast().last?.eventType == .dissemination)
        #expect(events.dropLast().last?.objects.contains(.record(record.recordId)) == true)
        #expect(events.last?.eventType == .digitalSignatureGeneration)
        #expect(events.last?.objects.contains(.record(record.recordId)) == true)
        #expect(try f.log.verify().isIntact)
        // custody.cose verifies over the exact bytes.
        let cose = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/custody.cose")))
        let json = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/custody.json")))
        #expect(CustodySignature.verify(cose, over: json, expectedCertificate: f.key.certificate) == .valid(fingerprint: f.key.fingerprint))
        var flipped = json
        flipped[flipped.count / 2] ^= 0x01
        #expect(CustodySignature.verify(cose, over: flipped, expectedCertificate: nil)
            == .invalid(code: "signature.invalid", detail: "the signature over custody.json does not verify"))
    }

    @Test func damagedBlobAbortsTheExportAndLeavesNoBag() throws {
        let f = try ExportFixture()
        let record = try f.addCapture("c1")
        // Damage one stored chunk in place (the LMDB map page holding the audio master).
        let audio = try #require(record.files.first { $0.role == "audio" })
        let original = try Data(contentsOf: URL(fileURLWithPath: f.dump + "/captures/c1/evidence/audio.caf"))
        let dbPath = f.archive + "/data.mdb"
        let db = try Data(contentsOf: URL(fileURLWithPath: dbPath))
        // Every whole copy of the file in the map (free pages may hold stale copies too), flipped
        // in place (same inode: the open environment maps this very file).
        var copies: [Int] = []
        var from = db.startIndex
        while let r = db.range(of: original, in: from..<db.endIndex) {
            copies.append(r.lowerBound)
            from = r.lowerBound + 1
        }
        #expect(!copies.isEmpty)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: dbPath))
        for at in copies {
            try handle.seek(toOffset: UInt64(at + 100))
            try handle.write(contentsOf: Data([db[at + 100] ^ 0xFF]))
        }
        try handle.close()
        let out = f.root + "/bag"
        #expect {
            try f.exporter().export([record], options: f.options(out))
        } throws: { error in
            guard let e = error as? ExportError, case .blobRefused(let rid, let path, let blob, let reason) = e else { return false }
            return rid == record.recordId.hex && path == "data/\(record.recordId)/\(audio.relativePath)" && blob == audio.blobId.hex
                && reason == "cas.chunk.damaged"
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.root).filter { $0.contains("partial") }
        #expect(leftovers == [])
        // No replication event was logged for the failed export.
        #expect(try f.log.allEvents().map(\.eventType) == [.ingestion])
    }

    @Test func refusesANonEmptyDestinationAndUnsafePaths() throws {
        let f = try ExportFixture()
        var record = try f.addCapture("c1")
        let out = f.root + "/taken"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: out + "/x", contents: Data([1]))
        #expect(throws: ExportError.outputExists(path: out)) { try f.exporter().export([record], options: f.options(out)) }
        record.files[0].relativePath = "evidence/../../escape"
        #expect(throws: ExportError.unsafePath(recordId: record.recordId.hex, path: "evidence/../../escape")) {
            try f.exporter().export([record], options: f.options(f.root + "/other"))
        }
    }

    @Test func secondVariantGoesUnderItsOwnName() throws {
        let f = try ExportFixture()
        var record = try f.addCapture("c1")
        // A re-wrapped copy stored as a second variant of the same record.
        let rewrap = f.root + "/rewrap.jpg"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: f.dump + "/captures/c1/IMG_c1.jpg")))
        bytes.append(0)  // trailing byte after EOI: a different file carrying the same claim
        try Data(bytes).write(to: URL(fileURLWithPath: rewrap))
        let put = try f.store.put(contentsOf: rewrap)
        record.variants.append(.init(blobId: put.id, size: UInt64(bytes.count), sourcePaths: ["dump2/captures/c1/IMG_c1.jpg"],
                                     firstIngested: record.ingestTime))
        let out = f.root + "/bag"
        let summary = try f.exporter().export([record], options: f.options(out))
        #expect(summary.files == 4)
        let copy = try Data(contentsOf: URL(fileURLWithPath: "\(out)/data/\(record.recordId)/variant-2/IMG_c1.jpg"))
        #expect(Array(copy) == bytes)
        #expect(BagVerifier(bag: out).verify().findings == [])
        // Both variants were verified from the bag; the appended byte is inside the data hash's
        // range, so the second variant reads as tampered, named by its code.
        let doc = try CustodyDocument.decoder().decode(CustodyDocument.self,
                                                       from: Data(contentsOf: URL(fileURLWithPath: out + "/custody.json")))
        let fresh = try #require(doc.records.first?.verificationAtExport)
        #expect(fresh.report?.integrity == .intact)
        #expect(fresh.variants.map(\.path) == ["data/\(record.recordId)/variant-2/IMG_c1.jpg"])
        #expect(fresh.variants.first?.sha256 == put.id)
        #expect(fresh.variants.first?.recordId == record.recordId)
        #expect(fresh.variants.first?.integrity == "tampered")
        #expect(fresh.variants.first?.failureCodes == ["assertion.dataHash.mismatch"])
    }
}
