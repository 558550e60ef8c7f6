import CAS
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
    private(set) var payload: [(path: String, sha256: String, size: UInt64)] = []
    private(set) var tagFiles: [(path: String, sha256: String)] = []
    private var finished = false

    /// Prepares a staging directory next to `destination`, which must not exist or be empty.
    public init(destination: String) throws(ExportError) {
        let fm = FileManager.default
        let dest = URL(fileURLWithPath: destination).standardizedFileURL.path
        if fm.fileExists(atPath: dest) {
            let items = (try? fm.contentsOfDirectory(atPath: dest)) ?? ["?"]
            guard items.isEmpty else { throw .outputExists(path: dest) }
        }
        let parent = (dest as NSString).deletingLastPathComponent
        let name = (dest as NSString).lastPathComponent
        self.destination = dest
        self.staging = "\(parent)/.\(name).export-\(getpid()).partial"
        try? fm.removeItem(atPath: staging)
        try Self.makeDirectory(staging)
        try Self.makeDirectory(staging + "/data")
    }

    deinit {
        if !finished { try? FileManager.default.removeItem(atPath: staging) }
    }

    /// Streams one payload file out of the store into `data/…`.
    public func writePayload(_ entry: PayloadPlan.Entry, from store: ContentStore) throws(ExportError) {
        let id = entry.blobId
        let target = staging + "/" + entry.bagPath
        try Self.makeDirectory((target as NSString).deletingLastPathComponent)
        do {
            try store.export(id, to: target, verify: true)
        } catch let e as CASError {
            switch e {
            case .input(let p, let err): throw .io(path: p, errno: err)
            case .notAnArchive, .unsupportedFormat, .storage: throw .blobRefused(
                recordId: entry.recordId.hex, path: entry.bagPath, blobId: id.hex, reason: e.description)
            default: throw .blobRefused(recordId: entry.recordId.hex, path: entry.bagPath, blobId: id.hex, reason: e.code)
            }
        } catch {
            throw .io(path: target, errno: EIO)
        }
        let size = Self.fileSize(target) ?? 0
        payload.append((entry.bagPath, id.hex, size))
    }

    /// Writes a tag file at the bag root (or under a tag directory), to be listed in the tag
    /// manifest.
    public func writeTag(_ path: String, _ bytes: [UInt8]) throws(ExportError) {
        try Self.writeFile(staging + "/" + path, bytes)
        tagFiles.append((path, Hex.encode(MessageDigest.sha256(bytes))))
    }

    /// Total payload bytes and file count (`Payload-Oxum` = `bytes.count`).
    public var payloadOxum: (bytes: UInt64, files: Int) { (payload.reduce(0) { $0 + $1.size }, payload.count) }

    /// Writes `bagit.txt`, `manifest-sha256.txt`, `bag-info.txt` and `tagmanifest-sha256.txt`,
    /// then renames the staging directory to the destination.
    public func finish(info: BagInfo) throws(ExportError) {
        try writeTag("bagit.txt", Array("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".utf8))
        let manifest = payload.sorted { $0.path < $1.path }.map { "\($0.sha256)  \(BagPath.encode($0.path))\n" }.joined()
        try writeTag("manifest-sha256.txt", Array(manifest.utf8))
        let oxum = payloadOxum
        try writeTag("bag-info.txt", Array(info.text(payloadBytes: oxum.bytes, payloadFiles: oxum.files).utf8))
        let tags = tagFiles.sorted { $0.path < $1.path }.map { "\($0.sha256)  \(BagPath.encode($0.path))\n" }.joined()
        try Self.writeFile(staging + "/tagmanifest-sha256.txt", Array(tags.utf8))
        let fm = FileManager.default
        if fm.fileExists(atPath: destination) { rmdir(destination) }
        do { try FileSystem.rename(staging, to: destination) } catch { throw .io(path: destination, errno: error.rawValue) }
        finished = true
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
