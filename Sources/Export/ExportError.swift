import Foundation
import Ground

/// Why an export could not be made. `code` is stable; tests and the CLI compare against it.
/// An export that throws leaves no bag behind (it is built under a temporary name).
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output directory already exists and is not empty.
    case outputExists(path: String)
    /// A record ID asked for is not in the archive.
    case unknownRecord(String)
    /// Nothing to export (no record IDs, or the query matched nothing).
    case noRecords
    /// A stored relative path cannot become a bag path (`..`, absolute, empty component, NUL).
    case unsafePath(recordId: String, path: String)
    /// Two different blobs of one record would land on the same bag path.
    case pathCollision(recordId: String, path: String)
    /// The CAS refused a blob: its bytes no longer match its ID (or a chunk is missing).
    /// `reason` is the CAS error code (`cas.chunk.damaged`, `cas.blob.mismatch`, …).
    case blobRefused(recordId: String, path: String, blobId: String, reason: String)
    /// The blob store itself could not be used while a blob was read (S3 unreachable after
    /// the retries, credentials refused): nothing is known to be wrong with the blob; exit 3.
    /// `reason` is the store's error, code first (`s3.credentials.rejected: …`).
    case blobStoreUnavailable(blobId: String, reason: String)
    /// Writing the bag failed.
    case io(path: String, errno: Int32)
    /// The archive key could not be created, loaded or used.
    case archiveKey(String)
    /// The custody log could not be read or appended to.
    case custody(String)
    /// `--digest` names an algorithm a new bag may not use (md5, sha1) or that is unknown.
    case digest(String)
    /// `--pdf` was asked for and no PDF engine (headless Chromium) could be found.
    case pdfEngineMissing(String)
    /// The PDF engine ran and did not make a PDF.
    case pdfFailed(String)
    /// The bag is complete and its replication event committed, but the staging folder could
    /// not be renamed to the destination; it is kept, and `gc` moves it into place later.
    case notPlaced(staging: String, destination: String, reason: String)

    public var code: String {
        switch self {
        case .outputExists: StatusCode.exportOutputExists
        case .unknownRecord: StatusCode.exportUnknownRecord
        case .noRecords: StatusCode.exportNoRecords
        case .unsafePath: StatusCode.exportUnsafePath
        case .pathCollision: StatusCode.exportPathCollision
        case .blobRefused: StatusCode.exportBlobRefused
        case .blobStoreUnavailable: StatusCode.exportBlobStoreUnavailable
        case .io: StatusCode.exportIo
        case .archiveKey: StatusCode.exportArchiveKey
        case .custody: StatusCode.exportCustody
        case .digest: StatusCode.exportDigestUnsupported
        case .pdfEngineMissing: StatusCode.exportPdfEngineMissing
        case .pdfFailed: StatusCode.exportPdfFailed
        case .notPlaced: StatusCode.exportNotPlaced
        }
    }

    public var description: String {
        switch self {
        case .outputExists(let p): "\(code): \(p) exists and is not empty"
        case .unknownRecord(let r): "\(code): no record \(r) in the archive"
        case .noRecords: "\(code): nothing to export"
        case .unsafePath(let r, let p): "\(code): record \(r): stored path \(p.debugDescription) cannot be a bag path"
        case .pathCollision(let r, let p): "\(code): record \(r): two different files for \(p)"
        case .blobRefused(let r, let p, let b, let why):
            "\(code): record \(r): \(p): blob \(b) no longer matches its ID (\(why)); export aborted, no bag written"
        case .blobStoreUnavailable(let b, let why): "\(code): blob \(b) could not be read: \(why); export aborted, no bag written"
        case .io(let p, let e): "\(code): \(p): \(String(cString: strerror(e)))"
        case .archiveKey(let m): "\(code): \(m)"
        case .notPlaced(let staging, let destination, let reason):
            "\(code): the bag is complete and its replication event is logged, but it could not be moved to \(destination) (\(reason)); it is kept in \(staging), and `exhibit-archive gc` moves it there once the path is free"
        case .custody(let m): "\(code): \(m)"
        case .digest(let d): "\(code): \(d) cannot be a manifest algorithm of a new bag (use one of \(BagDigest.allCases.filter(\.isWritable).map(\.rawValue).joined(separator: ", ")))"
        case .pdfEngineMissing(let m): "\(code): \(m)"
        case .pdfFailed(let m): "\(code): \(m)"
        }
    }
}
