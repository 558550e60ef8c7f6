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

extension Ingestor {
    /// The delivery file and the regular files under the capture folder's `evidence/` and
    /// `disclosure/`, found by a descriptor walk from the dump root (`DumpDirectory`): the
    /// root opened `O_DIRECTORY|O_NOFOLLOW`, the capture folder, each folder below it and each
    /// file relative to its parent, never through a symlink, at most `WalkLimits.maxDepth`
    /// levels deep. What the walk cannot read was reported by discovery (`walk.*`); here it is
    /// left out, and the verifier reports the sidecar it misses.
    static func filesToStage(_ c: CaptureLocation, limits: WalkLimits = .standard) -> [StageFile] {
        guard let root = try? DumpDirectory.open(root: c.dumpRoot) else { return [] }
        let folderPath = c.captureFolder ?? CaptureVerifier.parent(c.deliveryFile)
        guard let folderRel = relative(folderPath, to: c.dumpRoot), let folder = try? root.directory(at: folderRel),
              let deliveryRel = relative(c.deliveryFile, to: folderPath), deliveryRel.depth == 1 else { return [] }
        var out: [StageFile] = []
        if let name = deliveryRel.name, (try? folder.descriptor.status(of: name))?.isRegularFile == true {
            out.append(StageFile(path: c.deliveryFile, folder: folder, relative: deliveryRel))
        }
        guard c.captureFolder != nil else { return out }
        for sub in ["evidence", "disclosure"] {  // EvidenceLayout's folder names
            guard let name = FileName(sub), let dir = try? folder.directory(name) else { continue }
            for rel in dir.regularFiles(limits: limits).files {
                out.append(StageFile(path: folderPath + "/" + sub + "/" + rel.text, folder: dir, relative: rel))
            }
        }
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
