/// One folder of a dump, open: the descriptor every child is opened relative to (`openat`
/// with `O_NOFOLLOW|O_CLOEXEC`), never a path string. The root is opened
/// `O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC` from the path a person gave; every folder below it from
/// its parent's descriptor, so a symlinked folder at any depth fails to open (`ELOOP`) and is
/// reported, not entered, and nothing outside the root is reachable.
public final class DumpDirectory: @unchecked Sendable {
    public let descriptor: FileDescriptor
    /// The root as given (for messages and the paths reported).
    public let root: String
    /// Where this folder sits below the root (empty for the root).
    public let path: RelativePath
    public let status: FileStatus

    private init(descriptor: FileDescriptor, root: String, path: RelativePath) throws(Errno) {
        self.descriptor = descriptor
        self.root = root
        self.path = path
        status = try descriptor.status()
    }

    /// Opens the folder at `root` (a path a person gave; its last component never followed).
    public static func open(root: String) throws(WalkProblem) -> DumpDirectory {
        do {
            return try DumpDirectory(descriptor: FileDescriptor.open(root, .directory), root: root, path: RelativePath([]))
        } catch {
            // `O_DIRECTORY|O_NOFOLLOW` on a symlink fails with ENOTDIR (ELOOP without O_DIRECTORY).
            if error == .tooManySymbolicLinkLevels || (try? FileSystem.status(atPath: root))?.kind == .symlink {
                let target = (try? FileSystem.linkTarget(atPath: root)).map { PathText.encode($0) } ?? "?"
                throw WalkProblem(path: root, reason: .symlink(target: target))
            }
            throw WalkProblem(path: root, reason: .unreadable(error))
        }
    }

    /// `root/relative/path/name` in text form: how an entry is named in reports.
    public func display(_ name: FileName? = nil) -> String {
        let rel = name.map { path.appending($0) } ?? path
        guard rel.depth > 0 else { return root }
        return (root.hasSuffix("/") ? root : root + "/") + rel.text
    }

    /// One entry of a listing, as `fstatat(AT_SYMLINK_NOFOLLOW)` described it.
    public struct Entry: Hashable, Sendable {
        public let name: FileName
        public let status: FileStatus
        public var kind: FileStatus.Kind { status.kind }
    }

    /// The entries (sorted by their bytes, symlinks among them: the caller reports each with
    /// `symlinkProblem` and never enters it) and, apart, those `fstatat` could not describe
    /// (`walk.unreadable`). A folder over `limits.maxEntries` is `walk.tooMany`, thrown, with
    /// none of its entries.
    public func list(limits: WalkLimits = .standard) throws(WalkProblem) -> (entries: [Entry], problems: [WalkProblem]) {
        let names: [FileName]
        do { names = try descriptor.entries(limit: limits.maxEntries + 1) } catch {
            throw WalkProblem(path: display(), reason: .unreadable(error))
        }
        guard names.count <= limits.maxEntries else { throw WalkProblem(path: display(), reason: .tooMany(limit: limits.maxEntries)) }
        var entries: [Entry] = []
        var problems: [WalkProblem] = []
        for name in names {
            do { entries.append(Entry(name: name, status: try descriptor.status(of: name))) } catch {
                problems.append(WalkProblem(path: display(name), reason: .unreadable(error)))
            }
        }
        return (entries, problems)
    }

    /// Opens the regular file at `relative` below this folder: each folder on the way and the
    /// file itself relative to its parent's descriptor.
    public func file(at relative: RelativePath, limit: Int64 = FileLimits.current) throws(FileOpenError) -> FileByteSource {
        guard let name = relative.name else { throw .notRegularFile(path: display(), kind: .directory) }
        let parent: DumpDirectory
        do { parent = try directory(at: relative.parent) } catch {
            if case .symlink = error.reason { throw .symlink(path: error.path) }
            if case .unreadable(let e) = error.reason { throw .cannotOpen(path: error.path, errno: e) }
            throw .cannotOpen(path: error.path, errno: .invalidArgument)
        }
        return try parent.file(name, limit: limit)
    }

    /// The symlink `name` of this folder as a problem, with where it points.
    public func symlinkProblem(_ name: FileName) -> WalkProblem {
        let target = (try? descriptor.linkTarget(of: name)).map { PathText.encode($0) } ?? "?"
        return WalkProblem(path: display(name), reason: .symlink(target: target))
    }

    /// Opens the child folder `name` relative to this one (never through a symlink).
    public func directory(_ name: FileName) throws(WalkProblem) -> DumpDirectory {
        do {
            return try DumpDirectory(descriptor: descriptor.open(name, .directory), root: root, path: path.appending(name))
        } catch {
            // `O_DIRECTORY|O_NOFOLLOW` on a symlink fails with ENOTDIR (ELOOP without O_DIRECTORY).
            if error == .tooManySymbolicLinkLevels || (try? descriptor.status(of: name))?.kind == .symlink { throw symlinkProblem(name) }
            throw WalkProblem(path: display(name), reason: .unreadable(error))
        }
    }

    /// Opens the folder at `relative` below this one, one component at a time, each relative
    /// to its parent's descriptor.
    public func directory(at relative: RelativePath) throws(WalkProblem) -> DumpDirectory {
        var dir = self
        for name in relative.components { dir = try dir.directory(name) }
        return dir
    }

    /// Opens the regular file `name` of this folder (never through a symlink) of at most
    /// `limit` bytes; a FIFO or device is refused after `fstat`, before a byte is read.
    public func file(_ name: FileName, limit: Int64 = FileLimits.current) throws(FileOpenError) -> FileByteSource {
        try FileByteSource(opening: name, in: descriptor, path: display(name), limit: limit)
    }

    /// Opens the regular file at `path` under `dumpRoot` from the root's descriptor: every folder
    /// on the way and the file relative to its parent, `O_NOFOLLOW` (`DumpDirectory.file(at:)`),
    /// never by the path string. A path outside the root is refused (`io.cannotOpen`, EPERM).
    public static func file(_ path: String, under dumpRoot: String, limit: Int64 = FileLimits.current) throws(FileOpenError) -> FileByteSource {
        let prefix = dumpRoot.hasSuffix("/") ? dumpRoot : dumpRoot + "/"
        guard path.hasPrefix(prefix), let rel = RelativePath(text: String(path.dropFirst(prefix.count))) else {
            throw .cannotOpen(path: path, errno: .notPermitted)
        }
        let root: DumpDirectory
        do { root = try DumpDirectory.open(root: dumpRoot) } catch {
            if case .unreadable(let e) = error.reason { throw .cannotOpen(path: dumpRoot, errno: e) }
            throw .symlink(path: dumpRoot)
        }
        return try root.file(at: rel, limit: limit)
    }
}
