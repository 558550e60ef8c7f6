import Crypto
import Custody
import Foundation
import Ground
import Query
import Verify

extension IndexedRecord {
    /// The record a verification report describes, first seen now from `sourcePath`.
    /// `reportJSON`: `encode(r)` when already made (by a worker).
    init(report r: CaptureReport, recordId: ContentID, sourcePath: String, ingestTime: String, reportJSON: Data? = nil) throws {
        let variants = r.sha256.map { [Variant(blobId: $0, size: r.size ?? 0, sourcePaths: [sourcePath], firstIngested: ingestTime)] } ?? []
        self.init(recordId: recordId, kind: r.kind, integrity: r.integrity,
                  trust: r.signer?.trust, keyFingerprint: r.signer?.keyFingerprint,
                  captureTime: r.captureTime, tsaTime: r.timestamp.genTime.map(CustodyEvent.timestamp),
                  ingestTime: ingestTime, failureCodes: r.statusCodes.failure.map(\.code),
                  sidecars: Dictionary(r.sidecars.map { ($0.sink, $0.state) }, uniquingKeysWith: { a, _ in a }),
                  variants: variants, files: Self.storedFiles(r), reportJSON: reportJSON ?? Self.encode(r))
    }

    /// Every file of the report but the delivery file, as stored files.
    static func storedFiles(_ r: CaptureReport) -> [StoredFile] {
        r.files.filter { $0.role != .media }.map {
            StoredFile(role: $0.role, relativePath: $0.relativePath, blobId: $0.sha256, size: $0.size)
        }
    }

    /// The report as stored: JSON, sorted keys, ISO 8601 dates (as `verify --json` prints it).
    static func encode(_ r: CaptureReport) -> Data { Data(r.jsonBytes()) }

    /// The record ID of an item that could not be read at all (no bytes to hash): SHA-256 of
    /// `"exhibit-archive unreadable item" 0x00 sourcePath`, so a re-run finds the same record.
    static func unreadableId(sourcePath: String) -> ContentID {
        ContentID.sha256(of: Array("exhibit-archive unreadable item".utf8) + [0] + Array(sourcePath.utf8))
    }

    /// Adds the files of another report that this record does not list yet (by blob and path).
    mutating func merge(files other: [StoredFile]) {
        var have = Set(files.map { FileKey(blobId: $0.blobId, relativePath: $0.relativePath) })
        for f in other where have.insert(FileKey(blobId: f.blobId, relativePath: f.relativePath)).inserted { files.append(f) }
    }

    /// Takes the verification fields (state, trust, signer, times, codes, sidecars, report) of
    /// `other`, keeping identity, variants, files, sidecar variants and ingest time (the sink
    /// states are `other`'s rolled up with this record's sidecar variants). A record follows
    /// an intact variant when it has one, whatever order the variants arrived in.
    mutating func adoptVerification(of other: IndexedRecord) {
        kind = other.kind
        integrity = other.integrity
        trust = other.trust
        keyFingerprint = other.keyFingerprint
        captureTime = other.captureTime
        tsaTime = other.tsaTime
        failureCodes = other.failureCodes
        sidecars = rolledUpSidecars(primary: other.sidecars)
        reportJSON = other.reportJSON
        // A report without its media analyses (`--defer-media`) leaves them to be made again.
        if other.analyses?.state == .pending, analyses?.state != .pending { analyses = other.analyses }
    }
}

/// A stored file's identity within a record: its blob under its path.
struct FileKey: Hashable {
    var blobId: ContentID
    var relativePath: String
}
