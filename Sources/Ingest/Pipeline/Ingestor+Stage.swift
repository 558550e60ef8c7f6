import CaptureFormat
import Ground
import Verify

/// One file of a capture that ingest stages: the name the verifier knows it by (`path`, the
/// text form, as `CaptureLocation` spells paths) and where the walk found it — a folder opened
/// by descriptors from the dump root and the file's path below it. Opening it goes component
/// by component with `openat` and `O_NOFOLLOW`, never by a path string.
struct StageFile {
    let path: String
    let folder: DumpDirectory
    let relative: RelativePath

    func open() throws(FileOpenError) -> FileByteSource { try folder.file(at: relative, limit: FileLimits.current) }

    /// `fstatat` of the entry (no open), for the progress bar's estimate.
    var status: FileStatus? {
        guard let name = relative.name, let dir = try? folder.directory(at: relative.parent) else { return nil }
        return try? dir.descriptor.status(of: name)
    }
}

/// What ingest's walk found of one capture: the files to stage and, for a capture folder,
/// every entry the verifier may ask about — the delivery file's and `evidence/`'s and
/// `disclosure/`'s entries below the capture folder, each as `fstatat` saw it (symlinks with
/// their targets, never followed) — so the snapshot's presence and listing checks answer
/// from this walk and nothing is asked of the file system again (issue 12).
struct CaptureWalk {
    var files: [StageFile] = []
    /// Relative to the capture folder (text form) → what the walk saw there; nil for a loose
    /// file (no capture folder: nothing to list).
    var entries: [(path: String, status: FileStatus, target: String?)]? = nil

    /// The listing of `entries`, a regular file's size being the staged size when it was
    /// staged (`stagedSizes`, by relative path), else as `fstatat` saw it.
    func listing(stagedSizes: [String: Int64]) -> CaptureListing? {
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

extension Ingestor {
    /// The delivery file and the regular files under the capture folder's `evidence/` and
    /// `disclosure/`, found by a descriptor walk from the dump root (`DumpDirectory`): the
    /// root opened `O_DIRECTORY|O_NOFOLLOW`, the capture folder, each folder below it and each
    /// file relative to its parent, never through a symlink, at most `WalkLimits.maxDepth`
    /// levels deep. What the walk cannot read was reported by discovery (`walk.*`); here it is
    /// left out, and the verifier reports the sidecar it misses.
    static func filesToStage(_ c: CaptureLocation, limits: WalkLimits = .standard) -> [StageFile] {
        walk(c, limits: limits).files
    }

    /// `filesToStage` with every entry the walk saw (`CaptureWalk.entries`).
    static func walk(_ c: CaptureLocation, limits: WalkLimits = .standard) -> CaptureWalk {
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
            out.files.append(StageFile(path: c.deliveryFile, folder: folder, relative: deliveryRel))
        }
        guard c.captureFolder != nil else { return out }
        for sub in ["evidence", "disclosure"] {  // EvidenceLayout's folder names
            guard let name = FileName(sub), entry(name)?.isDirectory == true, let dir = try? folder.directory(name) else { continue }
            for e in dir.walk(limits: limits).entries {
                entries.append((sub + "/" + e.path.text, e.status, e.target))
                if e.kind == .regular {
                    out.files.append(StageFile(path: folderPath + "/" + sub + "/" + e.path.text, folder: dir, relative: e.path))
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
