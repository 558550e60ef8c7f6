import Crypto
import Export
import Foundation
import Ingest
import Testing

/// Every manifest and tag manifest of any BagIt algorithm: `--digest sha256,sha512` writes
/// both, bagit-python validates them; a bag bagit-python re-saves with its default algorithms
/// (sha256 and sha512, adding tagmanifest-sha512.txt) still verifies; a changed byte is named
/// under every algorithm; md5 is refused for a new bag.
@Suite struct ManifestAlgorithmTests {
    @Test func sha256AndSha512() throws {
        let f = try ExportFixture()
        let record = try f.addCapture("c1")
        let out = f.root + "/bag"
        var options = f.options(out)
        options.digests = [.sha512, .sha256]
        let s = try f.exporter().export([record], options: options)
        #expect(s.digests == [.sha256, .sha512])
        for name in ["manifest-sha256.txt", "manifest-sha512.txt", "tagmanifest-sha256.txt", "tagmanifest-sha512.txt"] {
            #expect(FileManager.default.fileExists(atPath: out + "/" + name), "\(name)")
        }
        let tag512 = try String(contentsOfFile: out + "/tagmanifest-sha512.txt", encoding: .utf8)
        #expect(tag512.contains("  manifest-sha256.txt\n") && tag512.contains("  manifest-sha512.txt\n") && !tag512.contains("tagmanifest"))
        let python = try #require(bagitPython())
        let (code, text) = try ExportFixture.run(python, ["-m", "bagit", "--validate", out])
        #expect(code == 0 && text.contains("is valid"), "\(text)")
        let r = BagVerifier(bag: out).verify()
        #expect(r.findings == [] && r.manifestAlgorithms == ["sha256", "sha512"])
        // One flipped payload byte: named under both algorithms.
        let audio = out + "/data/\(record.recordId)/evidence/audio.caf"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: audio)))
        bytes[10] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: audio))
        let bad = BagVerifier(bag: out).verify().findings
        #expect(bad.filter { $0.code == "bag.payloadChanged" }.count == 2, "\(bad)")
        #expect(bad.contains { $0.detail.contains("manifest-sha512.txt says") })
    }

    @Test func bagitPythonResavedBagStillVerifies() throws {
        let f = try ExportFixture()
        let record = try f.addCapture("c1")
        let out = f.root + "/bag"
        _ = try f.exporter().export([record], options: f.options(out))
        let python = try #require(bagitPython())
        // bagit-python's defaults: sha256 and sha512 manifests, tag manifests for both.
        let (code, text) = try ExportFixture.run(python, ["-c", """
            import bagit, sys
            bag = bagit.Bag(sys.argv[1])
            bag.algorithms = ["sha256", "sha512"]
            bag.save(manifests=True)
            bag.validate()
            print("resaved", sorted(bag.algorithms))
            """, out])
        #expect(code == 0 && text.contains("resaved ['sha256', 'sha512']"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: out + "/tagmanifest-sha512.txt"))
        let r = BagVerifier(bag: out).verify()
        #expect(r.findings == [], "\(r.findings)")
        #expect(r.manifestAlgorithms == ["sha256", "sha512"])
        // A tag file listed in one tag manifest only is named.
        try Data("added\n".utf8).write(to: URL(fileURLWithPath: out + "/note.txt"))
        let manifest = out + "/tagmanifest-sha256.txt"
        let line = "\(Hex.sha256("added\n"))  note.txt\n"
        try (try String(contentsOfFile: manifest, encoding: .utf8) + line).write(toFile: manifest, atomically: true, encoding: .utf8)
        let added = BagVerifier(bag: out).verify().findings
        #expect(added.contains { $0.code == "bag.tagFileUnlisted" && $0.path == "note.txt" && $0.detail.contains("tagmanifest-sha512.txt") }, "\(added)")
    }

    @Test func weakAlgorithmsAreRefusedForNewBags() throws {
        let f = try ExportFixture()
        let record = try f.addCapture("c1")
        var options = f.options(f.root + "/bag")
        options.digests = [.md5]
        #expect(throws: ExportError.digest("md5")) { try f.exporter().export([record], options: options) }
        #expect(!FileManager.default.fileExists(atPath: f.root + "/bag"))
    }
}

extension Hex {
    static func sha256(_ text: String) -> String { Hex.encode(MessageDigest.sha256(Array(text.utf8))) }
}
