import Archive
import Crypto
import Foundation
import Ground

/// Writes a BagIt 1.0 bag (RFC 8493) into a staging directory and moves it into place.
///
/// Payload files are streamed from the CAS chunk by chunk (constant memory) with the CAS
/// re-hash on: a blob whose bytes no longer match its ID is refused (`blobRefused`) and the
/// whole export fails, leaving no bag. The payload manifest's SHA-256 of each file is its blob
/// ID, which the CAS has just re-proved over the very bytes written.
public final class BagWriter {
    /// The final bag directory.
    public let destination: String
    /// Where the bag is built until `finish` renames it to `destination`.
    public let staging: String
    private(set) var payload: [(path: String, digests: [BagDigest: String], size: UInt64)] = []
    private(set) var tagFiles: [(path: String, digests: [BagDigest: String])] = []
    private var finished = false
    /// The manifests' algorithms (`manifest-<alg>.txt`, `tagmanifest-<alg>.txt` each).
    public let digests: [BagDigest]

    /// Prepares a staging directory next to `destination`, which must not exist or be empty.
    public init(destination: String, digests: [BagDigest] = [.sha256]) throws(ExportError) {
        self.digests = digests.isEmpty ? [.sha256] : Array(Set(digests)).sorted()
        let fm = FileManager.default
        let dest = URL(fileURLWithPath: destination).standardizedFileURL.path
        if fm.fileExists(atPath: dest) {
            let items = (try? fm.contentsOfDirectory(atPath: dest)) ?? ["?"]
            guard items.isEmpty else { throw .outputExists(path: dest) }
        }
        self.destination = dest
        self.staging = Self.stagingPath(for: dest)
        try? fm.removeItem(atPath: staging)
        try Self.makeDirectory(staging)
        try Self.makeDirectory(staging + "/data")
    }

    /// `.<DIR>.export-<pid>.partial` next to the destination `DIR`.
    public static func stagingPath(for destination: String) -> String {
        let dest = URL(fileURLWithPath: destination).standardizedFileURL.path
        let parent = (dest as NSString).deletingLastPathComponent
        return "\(parent)/.\((dest as NSString).lastPathComponent).export-\(getpid()).partial"
    }

    deinit {
        if !finished { try? FileManager.default.removeItem(atPath: staging) }
    }

    /// Streams one payload file out of the store into `data/…`.
    public func writePayload(_ entry: PayloadPlan.Entry, from store: any BlobStore) throws(ExportError) {
        let id = entry.blobId
        let target = staging + "/" + entry.bagPath
        try Self.makeDirectory((target as NSString).deletingLastPathComponent)
        do {
            try store.export(id, to: target)
        } catch let e as any BlobStoreFailure {
            if let (p, err) = e.fileFailure { throw .io(path: p, errno: err) }
            throw .blobRefused(recordId: entry.recordId.hex, path: entry.bagPath, blobId: id.hex,
                               reason: e.archiveUnusable ? e.description : e.statusCode)
        } catch let e as any NamedError {
            // Another store: a blob gone or not its ID is refused; the store itself failing
            // (`s3.unavailable`, `s3.credentials.rejected`, …) is no verdict on the blob.
            if [StatusCode.s3NotFound, StatusCode.s3IntegrityMismatch, StatusCode.s3IntegrityRejected].contains(e.statusCode) {
                throw .blobRefused(recordId: entry.recordId.hex, path: entry.bagPath, blobId: id.hex, reason: e.statusCode)
            }
            throw .blobStoreUnavailable(blobId: id.hex, reason: "\(e)")
        } catch {
            throw .io(path: target, errno: EIO)
        }
        var sums: [BagDigest: String] = [.sha256: id.hex]
        let others = digests.filter { $0 != .sha256 }
        if !others.isEmpty {
            // The CAS proved the SHA-256 on the way out; the other algorithms read the copy back.
            guard let read = BagDigest.digests(ofFile: target, others) else { throw .io(path: target, errno: EIO) }
            sums.merge(read.digests) { a, _ in a }
        }
        let size = Self.fileSize(target) ?? 0
        payload.append((entry.bagPath, sums, size))
    }

    /// Writes a tag file at the bag root (or under a tag directory), to be listed in the tag
    /// manifest.
    public func writeTag(_ path: String, _ bytes: [UInt8]) throws(ExportError) {
        try Self.writeFile(staging + "/" + path, bytes)
        // Written again (a re-run sealing): the last bytes count, listed once.
        tagFiles.removeAll { $0.path == path }
        tagFiles.append((path, BagDigest.digests(of: bytes, digests)))
    }

    /// Total payload bytes and file count (`Payload-Oxum` = `bytes.count`).
    public var payloadOxum: (bytes: UInt64, files: Int) { (payload.reduce(0) { $0 + $1.size }, payload.count) }

    /// Seals the bag, then renames the staging directory to the destination.
    public func finish(info: BagInfo) throws(ExportError) {
        try seal(info: info)
        try place()
    }

    /// Writes `bagit.txt`, one `manifest-<alg>.txt` per algorithm, `bag-info.txt` and one
    /// `tagmanifest-<alg>.txt` per algorithm (each listing every other tag file): the staging
    /// directory is then the complete bag. Re-runnable.
    public func seal(info: BagInfo) throws(ExportError) {
        try writeTag("bagit.txt", Array("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".utf8))
        for d in digests {
            let manifest = payload.sorted { $0.path < $1.path }.map { "\($0.digests[d] ?? "")  \(BagPath.encode($0.path))\n" }.joined()
            try writeTag(d.payloadManifest, Array(manifest.utf8))
        }
        let oxum = payloadOxum
        try writeTag("bag-info.txt", Array(info.text(payloadBytes: oxum.bytes, payloadFiles: oxum.files).utf8))
        for d in digests {
            let tags = tagFiles.sorted { $0.path < $1.path }.map { "\($0.digests[d] ?? "")  \(BagPath.encode($0.path))\n" }.joined()
            try Self.writeFile(staging + "/" + d.tagManifest, Array(tags.utf8))
        }
    }

    /// Renames the sealed staging directory to the destination (an empty destination
    /// directory is removed first).
    public func place() throws(ExportError) {
        try Self.place(staging: staging, destination: destination)
        finished = true
    }

    /// Keeps the staging directory when this writer goes away (a sealed bag whose custody
    /// event committed but which could not be renamed: `gc` finishes it).
    public func keepStaging() { finished = true }

    static func place(staging: String, destination: String) throws(ExportError) {
        if FileManager.default.fileExists(atPath: destination) { rmdir(destination) }
        do { try FileSystem.rename(staging, to: destination) } catch { throw .io(path: destination, errno: error.rawValue) }
    }

    static func makeDirectory(_ path: String) throws(ExportError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .io(path: path, errno: (error as NSError).code == NSFileWriteFileExistsError ? EEXIST : EIO)
        }
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(ExportError) {
        do {
            let fd = try FileDescriptor.create(path, exclusive: false)
            try bytes.withUnsafeBytes { try fd.write(all: $0) }
        } catch {
            throw .io(path: path, errno: (error as? Errno)?.rawValue ?? Errno.ioError.rawValue)
        }
    }

    static func fileSize(_ path: String) -> UInt64? {
        (try? FileSystem.status(atPath: path)).map { UInt64(max(0, $0.size)) }
    }
}
