/// The walk below one folder of a dump: every entry as `fstatat(AT_SYMLINK_NOFOLLOW)` saw it,
/// with each symlink's target as `readlinkat` gave it, so a caller can answer every presence
/// and listing question from what was walked (ingest's `CaptureListing`) instead of asking the
/// file system again. Nothing is followed: a symlinked folder is an entry, never entered.
extension DumpDirectory {
    public struct Walk: Sendable {
        /// One entry below the walked folder.
        public struct Entry: Hashable, Sendable {
            /// Relative to the walked folder.
            public let path: RelativePath
            public let status: FileStatus
            /// A symlink's target in text form (`PathText`), `?` when it could not be read;
            /// nil for every other kind.
            public let target: String?
            public var kind: FileStatus.Kind { status.kind }
        }

        /// In walk order: a folder's entries sorted by their bytes, each folder's contents
        /// right after it (depth first).
        public var entries: [Entry] = []
        /// Every entry not read or not entered: symlinks (`walk.symlink`), unreadable folders
        /// and entries, folders deeper than the limit (listed as entries, not entered), folders
        /// over the entry limit.
        public var problems: [WalkProblem] = []

        /// The regular files, in walk order.
        public var files: [RelativePath] { entries.filter { $0.kind == .regular }.map(\.path) }
        /// Devices, FIFOs, sockets and entries of unknown kind (a reader refuses them by name).
        public var others: [RelativePath] {
            entries.filter { ![.regular, .directory, .symlink].contains($0.kind) }.map(\.path)
        }
    }

    /// Walks everything below this folder (at most `limits.maxDepth` levels, at most
    /// `limits.maxEntries` per folder), never through a symlink.
    public func walk(limits: WalkLimits = .standard) -> Walk {
        var out = Walk()
        func visit(_ dir: DumpDirectory, _ rel: RelativePath) {
            let listed: (entries: [Entry], problems: [WalkProblem])
            do { listed = try dir.list(limits: limits) } catch { out.problems.append(error); return }
            out.problems += listed.problems
            for e in listed.entries {
                let path = rel.appending(e.name)
                switch e.kind {
                case .symlink:
                    let problem = dir.symlinkProblem(e.name)
                    out.entries.append(Walk.Entry(path: path, status: e.status, target: problem.target))
                    out.problems.append(problem)
                case .directory:
                    out.entries.append(Walk.Entry(path: path, status: e.status, target: nil))
                    guard rel.depth + 1 < limits.maxDepth else {
                        out.problems.append(WalkProblem(path: dir.display(e.name), reason: .tooDeep(limit: limits.maxDepth)))
                        continue
                    }
                    do { visit(try dir.directory(e.name), path) } catch { out.problems.append(error) }
                default:
                    out.entries.append(Walk.Entry(path: path, status: e.status, target: nil))
                }
            }
        }
        visit(self, RelativePath([]))
        return out
    }

    /// Every regular file below this folder (relative to it, in walk order) and every entry not
    /// read or not entered: symlinks, unreadable folders, folders deeper than
    /// `limits.maxDepth` levels below this one, folders over `limits.maxEntries`. Devices,
    /// FIFOs and sockets are left out of `files` (a reader of them refuses them by name).
    public func regularFiles(limits: WalkLimits = .standard) -> (files: [RelativePath], others: [RelativePath], problems: [WalkProblem]) {
        let w = walk(limits: limits)
        return (w.files, w.others, w.problems)
    }
}
