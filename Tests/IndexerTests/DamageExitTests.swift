import CAS
import Foundation
import Ground
@testable import Indexer
import TestLiterals
import Testing

@Suite struct DamageExitTests {
    @Test func damagedArchiveFailsGetAndAuditWithExitOne() throws {
        let s = Scratch()
        let bytes = pseudoRandom(1_500_000, seed: 31)
        let file = s.file("d.bin", bytes: bytes)
        let id = ContentID(of: bytes)
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        #expect(cli(["put", "--archive", s.archive, file]).code == .success)
        let chunk0 = try #require(try ContentStore.open(at: s.archive).record(of: id)).chunks[0]

        // Flip one byte of data.mdb inside the first chunk (found by its bytes).
        let db = s.archive + "/data.mdb"
        var raw = try [UInt8](Data(contentsOf: URL(fileURLWithPath: db)))
        let needle = Array(bytes[500_000..<500_032])
        let at = try #require((0...(raw.count - needle.count)).first { raw[$0] == needle[0] && raw[$0..<$0 + 32].elementsEqual(needle) })
        raw[at + 7] ^= 0x80
        try Data(raw).write(to: URL(fileURLWithPath: db))

        let out = s.path + "/out.bin"
        let get = cli(["get", id.hex, "-o", out, "--archive", s.archive])
        #expect(get.code == .failure)
        #expect(get.err.contains("cas.chunk.damaged"))
        #expect(!FileManager.default.fileExists(atPath: out))

        let audit = cli(["audit", "--archive", s.archive])
        #expect(audit.code == .failure)
        #expect(audit.out == "damaged \(id.hex) damaged-chunk 0 \(chunk0.hex)\naudit: checked 1 of 1 blobs, 1500000 bytes, 1 damaged\n")
        let json = cli(["audit", "--json", "--archive", s.archive])
        #expect(json.out.hasPrefix("{\"type\":\"damage\",\"blob\":\"\(id.hex)\",\"missingChunks\":[],\"damagedChunks\":[{\"index\":0,\"id\":\"\(chunk0.hex)\"}]"))
        #expect(json.out.hasSuffix("{\"type\":\"summary\",\"blobs\":1,\"checked\":1,\"bytes\":1500000,\"damaged\":1}\n"))
    }
}
