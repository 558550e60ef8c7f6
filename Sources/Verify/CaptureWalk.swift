import CaptureFormat
import Ground

/// One file of a capture found by the walk (`CaptureWalk`): the name the verifier knows it by
/// (`path`, the text form, as `CaptureLocation` spells paths) and where the walk found it — a
/// folder opened by descriptors from the dump root and the file's path below it. Opening it
/// goes component by component with `openat` and `O_NOFOLLOW`, never by a path string.
public struct WalkedFile: Sendable {
    public let path: String
    public let folder: DumpDirectory
    public let relative: RelativePath

    public func open() throws(FileOpenError) -> FileByteSource { try folder.file(at: relative, limit: FileLimits.current) }

    /// `fstatat` of the entry (no open), for the progress bar's estimate.
    public var status: FileStatus? {
        guard let name = relative.name, let dir = try? folder.directory(at: relative.parent) else { return nil }
        return try? dir.descriptor.status(of: name)
    }
}

/// What the walk found of one capture (ingest stages from it, `verify` reads from it): the
/// files to read and, for a capture folder,
/// every entry the verifier may ask about — the delivery file's and `evidence/`'s and
/// `disclosure/`'s entries below the capture folder, each as `fstatat` saw it (symlinks with
/// their targets, never followed) — so the snapshot's presence and listing checks answer
/// from this walk and nothing is asked of the file system again (issue 12).
public struct CaptureWalk: Sendable {
    public var files: [WalkedFile] = []
    /// Relative to the capture folder (text form) → what the walk saw there; nil for a loose
    /// file (no capture folder: nothing to list).
    public var entries: [(path: String, status: FileStatus, target: String?)]? = nil

    /// The listing of `entries`, a regular file's size being the staged size when it was
    /// staged (`stagedSizes`, by relative path), else as `fstatat` saw it.
    public func listing(stagedSizes: [String: Int64]) -> CaptureListing? {
        guard let entries else { return nil }
        var listing = CaptureListing()
        for e in entries {
            switch e.status.kind {
            case .regular: listing.addFile(e.path, size: stagedSizes[e.path] ?? e.status.size)
            case .directory: listing.addFolder(e.path)
            case .symlink: listing.addSymlink(e.path, target: e.target ?? "?")
            default: listing.addOther(e.path)
            }
        }
        return listing
    }
}

extension CaptureWalk {
    /// Walks capture `c` from its dump root by descriptors: the delivery file and the regular
    /// files under the capture folder's `evidence/` and `disclosure/` (never through a
    /// symlink, at most `limits.maxDepth` levels deep), with every entry seen.
    public init(_ c: CaptureLocation, limits: WalkLimits = .standard) {
        self = Self.walk(c, limits: limits)
    }

    static func walk(_ c: CaptureLocation, limits: WalkLimits) -> CaptureWalk {
        guard let root = try? DumpDirectory.open(root: c.dumpRoot) else { return CaptureWalk() }
        let folderPath = c.captureFolder ?? CaptureVerifier.parent(c.deliveryFile)
        guard let folderRel = relative(folderPath, to: c.dumpRoot), let folder = try? root.directory(at: folderRel),
              let deliveryRel = relative(c.deliveryFile, to: folderPath), deliveryRel.depth == 1,
              let deliveryName = deliveryRel.name else { return CaptureWalk() }
        var out = CaptureWalk()
        var entries: [(path: String, status: FileStatus, target: String?)] = []
        func entry(_ name: FileName) -> FileStatus? {
            guard let st = try? folder.descriptor.status(of: name) else { return nil }
            let target = st.kind == .symlink ? folder.symlinkProblem(name).target : nil
            entries.append((name.text, st, target))
            return st
        }
        if entry(deliveryName)?.isRegularFile == true {
            out.files.append(WalkedFile(path: c.deliveryFile, folder: folder, relative: deliveryRel))
        }
        guard c.captureFolder != nil else { return out }
        for sub in ["evidence", "disclosure"] {  // EvidenceLayout's folder names
            guard let name = FileName(sub), entry(name)?.isDirectory == true, let dir = try? folder.directory(name) else { continue }
            for e in dir.walk(limits: limits).entries {
                entries.append((sub + "/" + e.path.text, e.status, e.target))
                if e.kind == .regular {
                    out.files.append(WalkedFile(path: folderPath + "/" + sub + "/" + e.path.text, folder: dir, relative: e.path))
                }
            }
        }
        out.entries = entries
        return out
    }

    /// `path` below `root` as a relative path (empty for the root itself); nil when it is not
    /// under it. Both absolute and normalised, names in text form.
    static func relative(_ path: String, to root: String) -> RelativePath? {
        if path == root { return RelativePath([]) }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return RelativePath(text: String(path.dropFirst(prefix.count)))
    }
}
