import Ground
import Query

/// Where each stored file of a record goes in the bag: `data/<recordId>/<relativePath>`.
///
/// - The primary delivery-file variant (the one the record's report describes) keeps its capture-folder name (the `media` file's
///   `relativePath` when the record lists one with that blob, else the source file's name).
/// - Variant k ≥ 2 (a malleable re-wrap of the same claim) goes to
///   `data/<recordId>/variant-<k>/<file name>`.
/// - Every other stored file (sidecars, ring frames, depth, second view, bundles) keeps its
///   path relative to the capture folder, so the record's folder in the bag is the capture
///   folder again and the verifier can be run over it.
/// - A second copy's differing file under the same path (a sidecar variant: the k-th distinct
///   blob stored under that path, k ≥ 2) goes to `data/<recordId>/sidecar-variant-<k>/<relativePath>`.
public struct PayloadPlan: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var recordId: ContentID
        /// `media`, `media-variant`, or the stored file's role (`audio`, `ring-frame`, …).
        public var role: FileRole
        /// Path relative to the record's folder (`data/<recordId>/`).
        public var relativePath: String
        public var blobId: ContentID
        public var size: UInt64
        /// Path relative to the bag root (`data/<recordId>/<relativePath>`).
        public var bagPath: String { "data/\(recordId.hex)/\(relativePath)" }
    }

    public var entries: [Entry]

    /// The plan for one record. `primaryBlob` (the variant the record's stored report
    /// describes) is placed first, under the unnumbered name; the other variants follow in
    /// stored order. Throws `unsafePath` for a stored path that could escape its folder and
    /// `pathCollision` when two different blobs still claim one path (a stored path that is
    /// itself `variant-<k>/…` or `sidecar-variant-<k>/…`).
    public init(record: IndexedRecord, primaryBlob: ContentID? = nil) throws(ExportError) {
        var out: [Entry] = []
        var taken: [String: ContentID] = [:]  // relative path → blob
        func add(_ role: FileRole, _ path: String, _ blob: ContentID, _ size: UInt64) throws(ExportError) {
            guard BagPath.components(of: path) != nil else {
                throw .unsafePath(recordId: record.recordId.hex, path: path)
            }
            if let other = taken[path] {
                if other == blob { return }
                throw .pathCollision(recordId: record.recordId.hex, path: path)
            }
            taken[path] = blob
            out.append(Entry(recordId: record.recordId, role: role, relativePath: path, blobId: blob, size: size))
        }
        let variantBlobs = Set(record.variants.map(\.blobId))
        var variants = record.variants
        if let primaryBlob, let i = variants.firstIndex(where: { $0.blobId == primaryBlob }) {
            variants.insert(variants.remove(at: i), at: 0)
        }
        for (index, variant) in variants.enumerated() {
            let listed = record.files.first { $0.role == .media && $0.blobId == variant.blobId }
            let name = Self.fileName(listed?.relativePath ?? variant.sourcePaths.first ?? "media")
            if index == 0 {
                try add(.media, listed?.relativePath ?? name, variant.blobId, variant.size)
            } else {
                try add(.mediaVariant, "variant-\(index + 1)/\(name)", variant.blobId, variant.size)
            }
        }
        var copies: [String: [ContentID]] = [:]  // relative path → distinct blobs stored under it
        for file in record.files where !(file.role == .media && variantBlobs.contains(file.blobId)) {
            var blobs = copies[file.relativePath, default: []]
            if !blobs.contains(file.blobId) { blobs.append(file.blobId) }
            copies[file.relativePath] = blobs
            let k = blobs.firstIndex(of: file.blobId)! + 1  // appended above when absent
            try add(file.role, k == 1 ? file.relativePath : "sidecar-variant-\(k)/\(file.relativePath)", file.blobId, file.size)
        }
        entries = out
    }

    /// The last path component ("media" when there is none).
    static func fileName(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty || last == "." || last == ".." ? "media" : last
    }
}
