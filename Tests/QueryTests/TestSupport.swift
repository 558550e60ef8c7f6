import ArchiveLMDB
import CAS
import Foundation
import Ground
import LMDB
import Query
import TestLiterals

/// A fresh archive (CAS + record index in one LMDB environment) in a temporary directory,
/// removed when released.
final class TestArchive {
    let path: String
    let store: ContentStore
    let index: RecordIndex

    init() throws {
        path = NSTemporaryDirectory() + "query-test-" + UUID().uuidString
        store = try ContentStore.create(at: path)
        index = try RecordIndex(environment: store.environment)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func put(_ records: [IndexedRecord]) throws {
        try store.environment.write { txn in
            for r in records { try index.put(r, in: txn) }
        }
    }
}

/// A deterministic 64-hex-digit ID (splitmix64 words), distinct for distinct `n` and `salt`.
func hexID(_ n: Int, salt: UInt64 = 0) -> ContentID {
    var x = UInt64(n) &* 0x9e3779b97f4a7c15 &+ salt &+ 1
    var out = ""
    for _ in 0..<4 {
        x &+= 0x9e3779b97f4a7c15
        var z = x
        z = (z ^ (z >> 30)) &* 0xbf58476d1ce4e5b9
        z = (z ^ (z >> 27)) &* 0x94d049bb133111eb
        z ^= z >> 31
        let h = String(z, radix: 16)
        out += String(repeating: "0", count: 16 - h.count) + h
    }
    return id(out)
}

/// A record with the given fields and one variant (blob ID derived from `n`).
func record(_ n: Int, kind: MediaKind = "still", integrity: Integrity = "intact", trust: Trust? = "trusted",
            key: ContentID? = hexID(1000), time: String? = "2026-11-30T14:05:06.789Z",
            ingest: String = "2026-12-01T00:00:00Z", sidecars: [SidecarSink: SidecarState] = [:],
            variants: Int = 1) -> IndexedRecord {
    IndexedRecord(
        recordId: hexID(n), kind: kind, integrity: integrity, trust: trust, keyFingerprint: key,
        captureTime: time, tsaTime: nil, ingestTime: ingest, failureCodes: integrity == "tampered" ? ["assertion.dataHash.mismatch"] : [],
        sidecars: sidecars,
        variants: (0..<variants).map { v in
            IndexedRecord.Variant(blobId: hexID(n, salt: 77 + UInt64(v)), size: 100, sourcePaths: ["dump/\(n)-\(v).jpg"],
                                  firstIngested: ingest)
        },
        files: [IndexedRecord.StoredFile(role: "audio", relativePath: "audio.m4a", blobId: hexID(n, salt: 99), size: 5)],
        reportJSON: Data("{\"record\":\(n)}".utf8))
}

/// The hex IDs of records `ns`, sorted (the order query answers in).
func ids(_ ns: [Int]) -> [ContentID] { ns.map { hexID($0) }.sorted() }
