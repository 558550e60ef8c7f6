import CAS
import Foundation
import LMDB
import Testing

/// Issue 17 item 2, in process: a failed open throws a named error — it used to close the
/// `MDB_env` twice and abort the whole process (`free(): double free detected`) — and an
/// environment opened read-only refuses writes with `cas.readOnly`.
@Suite struct OpenFailureTests {
    @Test func garbageHeaderIsInvalidNotAnAbort() throws {
        let dir = TempDir()
        let path = dir.path + "/archive"
        _ = try ContentStore.create(at: path)
        let h = try #require(FileHandle(forUpdatingAtPath: path + "/data.mdb"))
        try h.write(contentsOf: Data(patternBytes(8192, seed: 3)))
        try h.close()
        for _ in 0..<3 {   // every failed open frees the environment once
            #expect { try ContentStore.open(at: path) } throws: { ($0 as? CASError)?.code == "cas.storage.invalid" }
        }
    }

    @Test func nonRegularEnvironmentFilesAreRefusedBeforeLMDB() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.path + "/a/data.mdb", withIntermediateDirectories: true)
        #expect { try ContentStore.open(at: dir.path + "/a") } throws: { ($0 as? CASError)?.code == "cas.storage.notAFile" }
        let real = dir.path + "/real"
        _ = try ContentStore.create(at: real)
        try FileManager.default.createDirectory(atPath: dir.path + "/b", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/b/data.mdb", withDestinationPath: real + "/data.mdb")
        #expect { try ContentStore.open(at: dir.path + "/b") } throws: { ($0 as? CASError)?.code == "cas.storage.notAFile" }
        #expect(throws: CASError.notAnArchive(path: dir.path + "/none")) { try ContentStore.open(at: dir.path + "/none") }
    }

    @Test func readOnlyEnvironmentRefusesWrites() throws {
        let dir = TempDir()
        let path = dir.path + "/archive"
        let file = dir.path + "/blob.bin"
        _ = FileManager.default.createFile(atPath: file, contents: Data(patternBytes(1000, seed: 8)))
        let id = try ContentStore.create(at: path).put(contentsOf: file).id
        var options = ContentStore.Options()
        options.environment.readOnly = true
        let store = try ContentStore.open(at: path, options: options)
        #expect(store.isReadOnly)
        #expect(try store.contains(id))
        #expect { try store.put(contentsOf: file) } throws: { ($0 as? CASError)?.code == "cas.readOnly" }
    }

    @Test func storageCodesAreNamed() {
        let cases: [(Int32, String)] = [
            (ENOSPC, "cas.storage.diskFull"), (EDQUOT, "cas.storage.diskFull"), (EROFS, "cas.readOnly"),
            (EACCES, "cas.storage.permissionDenied"), (EPERM, "cas.storage.permissionDenied"),
            (LMDBError.invalid.code, "cas.storage.invalid"), (EISDIR, "cas.storage.notAFile"), (ELOOP, "cas.storage.notAFile"),
            (EBUSY, "cas.storage.busy"), (EIO, "cas.storage"),
        ]
        for (code, name) in cases {
            #expect(CASError.storage(LMDBError(code: code)).code == name, "\(code)")
        }
        #expect(CASError.storage(.noSpace).description.hasPrefix("cas.storage.diskFull: disk full (archive kept as of the last commit): "))
    }
}
