import Ground

/// How a capture's files sit on disk (docs/capture-format.md §2), and the checks a reader
/// makes before reading any of them: recorded paths map by name into `evidence/`, nothing is
/// followed through a symlink, and files no sink names are listed.
///
///     DUMP/captures/<captureId>/IMG_….jpg | VID_….mp4     delivery file (exactly one)
///     DUMP/captures/<captureId>/evidence/                  sinks, by file name
///     DUMP/captures/<captureId>/disclosure/*.bundle.json   disclosure bundles
public struct EvidenceLayout: Sendable {
    public static let evidenceFolderName = "evidence"
    public static let disclosureFolderName = "disclosure"
    public static let bundleSuffix = ".bundle.json"
    /// File name extensions of delivery files: the app's JPEG and MP4, and every format the
    /// verifier reads (a dump may be a plain folder of signed files from anywhere; each is one
    /// record). The content decides how a file is read, never this list.
    public static let deliveryExtensions: Set<String> = ["jpg", "jpeg", "mp4", "mov", "m4v", "m4a", "heic", "heif", "avif",
                                                          "png", "webp", "wav", "avi", "tif", "tiff", "dng", "gif", "svg",
                                                          "jxl", "mp3", "flac", "pdf"]

    /// Absolute, lexically normalised.
    public let dumpRoot: String
    public let captureFolder: String
    public var evidenceFolder: String { captureFolder + "/" + EvidenceLayout.evidenceFolderName }
    public var disclosureFolder: String { captureFolder + "/" + EvidenceLayout.disclosureFolderName }
    /// When set, every presence and listing question is answered from it, never the file
    /// system: a path outside the capture folder is absent (`EvidenceLayout+Listing.swift`).
    public let listing: CaptureListing?

    public init(captureFolder: String, dumpRoot: String, listing: CaptureListing? = nil) {
        self.captureFolder = EvidenceLayout.normalize(captureFolder)
        self.dumpRoot = EvidenceLayout.normalize(dumpRoot)
        self.listing = listing
    }

    /// What a reader found at the place a recorded path maps to.
    public struct Location: Hashable, Sendable {
        public let recorded: RecordedPath
        /// `evidence/<name>` on this machine, when the name is usable.
        public let localPath: String?
        public let entry: Entry
    }

    /// One directory entry as `lstat` sees it.
    public enum Entry: Hashable, Sendable {
        case file(size: Int64)
        case directory
        /// Never followed. `escapesDump`: the target, resolved lexically, leaves the dump root.
        case symlink(target: String, escapesDump: Bool)
        case other
        case absent
    }

    /// Maps a recorded on-device path to the capture's evidence folder by its last component.
    public func locate(_ recordedPath: String) -> Location {
        let rp = RecordedPath(recordedPath)
        guard let name = rp.name else { return Location(recorded: rp, localPath: nil, entry: .absent) }
        let local = evidenceFolder + "/" + name
        return Location(recorded: rp, localPath: local, entry: entry(at: local))
    }

    /// What is at `path`. A folder on the way below the capture folder (or the dump root) that
    /// is a symlink makes the entry that symlink: `evidence/` linked to `/etc` is reported, and
    /// nothing is read through it (issue 17 item 1).
    public func entry(at path: String) -> Entry {
        if let (link, target) = symlinkedFolder(above: path) {
            return .symlink(target: target, escapesDump: escapes(symlinkAt: link, target: target))
        }
        switch kind(path) {
        case .regular(let size): return .file(size: size)
        case .directory: return .directory
        case .symlink(let target): return .symlink(target: target, escapesDump: escapes(symlinkAt: path, target: target))
        case .other: return .other
        case .absent: return .absent
        }
    }

    /// The first folder strictly between the capture folder (else the dump root) and `path`
    /// that is a symlink, with its target; nil when none is (or `path` is under neither).
    func symlinkedFolder(above path: String) -> (path: String, target: String)? {
        guard let base = [captureFolder, dumpRoot].first(where: { path.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else { return nil }
        var folder = base
        for name in path.dropFirst(base.count).split(separator: "/").dropLast() {
            folder += (folder.hasSuffix("/") ? "" : "/") + name
            if case .symlink(let target) = kind(folder) { return (folder, target) }
        }
        return nil
    }

    /// Whether a symlink's target, resolved lexically from the link's folder, leaves the dump.
    public func escapes(symlinkAt path: String, target: String) -> Bool {
        let base = target.hasPrefix("/") ? target : parent(of: EvidenceLayout.normalize(path)) + "/" + target
        let resolved = EvidenceLayout.normalize(base)
        return !(resolved == dumpRoot || resolved.hasPrefix(dumpRoot == "/" ? "/" : dumpRoot + "/"))
    }

    /// The ring folder's frames: regular files become frames; symlinks, folders and other
    /// entries are reported and excluded from the listing.
    public struct RingScan: Hashable, Sendable {
        public var frames: [String] = []
        public var rejected: [Rejected] = []

        /// A ring-folder entry that is not a frame.
        public struct Rejected: Hashable, Sendable {
            public var name: String
            public var entry: Entry
        }
    }

    public func scanRing(at folder: String) -> RingScan {
        var scan = RingScan()
        for name in list(folder) ?? [] {
            let e = entry(at: folder + "/" + name)
            if case .file = e, RingListing.isValidName(name) { scan.frames.append(name) } else { scan.rejected.append(RingScan.Rejected(name: name, entry: e)) }
        }
        return scan
    }

    /// Entries of the evidence folder (relative paths, depth-first, sorted) that no sink names.
    /// `referencedNames` are the mapped names of every collected sink (files and the ring folder);
    /// everything under a referenced folder counts as referenced.
    public func unreferenced(referencedNames: Set<String>) -> [String] {
        var out: [String] = []
        func walk(_ rel: String, depth: Int) {
            let abs = rel.isEmpty ? evidenceFolder : evidenceFolder + "/" + rel
            for name in list(abs) ?? [] {
                let r = rel.isEmpty ? name : rel + "/" + name
                if rel.isEmpty && referencedNames.contains(name) { continue }
                if case .directory = entry(at: evidenceFolder + "/" + r), depth < 8 {
                    walk(r, depth: depth + 1)
                } else {
                    out.append(r)
                }
            }
        }
        walk("", depth: 0)
        return out
    }

    /// SHA-256 of an evidence file, streamed; refuses symlinks and non-regular files.
    public static func sha256(ofFileAt path: String) throws(EvidenceReadError) -> ContentID {
        try LayoutFileSystem.sha256(path)
    }

    /// SHA-256 of an evidence file the caller opened (by the dump walk's descriptors), streamed.
    public static func sha256(of file: FileByteSource) throws(EvidenceReadError) -> ContentID {
        try LayoutFileSystem.sha256(file)
    }

    /// The ring digest of a folder: each frame hashed, then the listing hashed.
    public func ringDigest(at folder: String) throws(EvidenceReadError) -> (digest: ContentID, scan: RingScan) {
        try ringDigest(at: folder, digest: { (path: String) throws(EvidenceReadError) -> ContentID in try LayoutFileSystem.sha256(path) })
    }

    /// The ring digest with the caller's digest of each frame file.
    public func ringDigest(at folder: String, digest: (String) throws(EvidenceReadError) -> ContentID)
        throws(EvidenceReadError) -> (digest: ContentID, scan: RingScan) {
        let scan = scanRing(at: folder)
        var frames: [(name: String, sha256: ContentID)] = []
        for name in scan.frames { frames.append((name, try digest(folder + "/" + name))) }
        // Names were filtered by isValidName and come from one directory, so listing cannot fail.
        let digest = (try? RingListing.digest(frames)) ?? MerkleTree.emptyRoot
        return (digest, scan)
    }

    private func parent(of path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return "/" }
        let p = String(path[..<i])
        return p.isEmpty ? "/" : p
    }

    /// Absolute (against the working directory) and lexically normalised: no `.`, `..` or
    /// empty components; `..` never climbs above `/`.
    public static func normalize(_ path: String) -> String {
        let abs = path.hasPrefix("/") ? path : LayoutFileSystem.currentDirectory + "/" + path
        var out: [Substring] = []
        for c in abs.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { if !out.isEmpty { out.removeLast() }; continue }
            out.append(c)
        }
        return "/" + out.joined(separator: "/")
    }
}
