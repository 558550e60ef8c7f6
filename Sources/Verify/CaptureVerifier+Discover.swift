import CaptureFormat
import Ground

/// What a walk of the paths given found: the captures, and every entry it could not read or
/// chose not to enter (`walk.*`, reported per path; a run with any is not clean).
public struct Discovery: Sendable {
    public var captures: [CaptureLocation] = []
    public var problems: [WalkProblem] = []

    public init(captures: [CaptureLocation] = [], problems: [WalkProblem] = []) {
        self.captures = captures
        self.problems = problems
    }
}

extension CaptureVerifier {
    /// The captures at `path` (see `walk(_:limits:)`), without the walk's problems.
    public static func discover(_ path: String) throws(DiscoveryError) -> [CaptureLocation] {
        try walk(path).captures
    }

    /// The captures at `path`: a media file, a capture folder (`captures/<id>/`), or a dump root
    /// (any folder: walked for folders that directly hold delivery files). Sorted bytewise by
    /// delivery path, deterministic. The walk goes by descriptors (`DumpDirectory`): the root
    /// opened `O_DIRECTORY|O_NOFOLLOW`, every folder below it with `openat` relative to its
    /// parent, never a path string. A symlink is never followed: a symlink where a delivery file
    /// sits is returned as a location (verify reports it, unread) and, as every symlink, reported
    /// as `walk.symlink` with its target; a symlinked folder is not entered. Inside a capture
    /// folder, `evidence/` and `disclosure/` are walked for what cannot be read (their files are
    /// the capture's, not captures). Names that are not UTF-8 are kept as bytes and named in
    /// the text form of `FileName`.
    public static func walk(_ path: String, limits: WalkLimits = .standard) throws(DiscoveryError) -> Discovery {
        let abs = EvidenceLayout.normalize(path)
        let probe = EvidenceLayout(captureFolder: abs, dumpRoot: abs)
        switch probe.entry(at: abs) {
        case .absent:
            throw .notFound(path)
        case .directory:
            let root: DumpDirectory
            do { root = try DumpDirectory.open(root: abs) } catch { throw .unreadableFolder(path) }
            let listed: (entries: [DumpDirectory.Entry], problems: [WalkProblem])
            do { listed = try root.list(limits: limits) } catch {
                if case .tooMany = error.reason { return Discovery(problems: [error]) }
                throw .unreadableFolder(path)
            }
            var found = Discovery()
            let contents = CaptureFolderContents(entries: listed.entries, in: root, limits: limits)
            if holdsDelivery(contents) {
                found.problems = listed.problems
                found.captures = captureFolder(abs, contents: contents, dumpRoot: dumpRoot(forCaptureFolder: abs))
                inspectCaptureFolder(root, entries: listed.entries, contents: contents, limits: limits, into: &found)
                return found
            }
            visit(root, listed: listed, dumpRoot: abs, limits: limits, into: &found)
            found.captures.sort { bytewisePrecedes($0.deliveryFile, $1.deliveryFile) }
            return found
        case .file, .symlink, .other:
            let folder = parent(abs)
            let name = String(abs.split(separator: "/").last ?? "")
            // Only a folder with evidence/ or disclosure/ can pair; list it only then (a folder
            // of many loose files given one by one stays linear).
            let sideFolders = [EvidenceLayout.evidenceFolderName, EvidenceLayout.disclosureFolderName].contains {
                if case .directory = probe.entry(at: folder + "/" + $0) { return true } else { return false }
            }
            var paired = false
            if sideFolders {
                let contents = CaptureFolderContents(scanning: folder)
                paired = contents.deliveryFiles == [name] && (contents.hasEvidenceFolder || !contents.bundles.isEmpty)
            }
            let root = paired ? dumpRoot(forCaptureFolder: folder) : folder
            return Discovery(captures: [CaptureLocation(deliveryFile: abs, captureFolder: paired ? folder : nil, dumpRoot: root)])
        }
    }

    /// A folder's delivery files as captures: paired with its evidence only when it is the only one.
    static func captureFolder(_ folder: String, contents: CaptureFolderContents, dumpRoot: String) -> [CaptureLocation] {
        var names = contents.deliveryFiles
        // Symlinks with a delivery extension are captures too: verify reports them unread.
        names += contents.strays.filter { !$0.contains("/") && isDeliveryName($0) }
        let single = contents.deliveryFiles.count == 1
        return names.sorted(by: bytewisePrecedes).map {
            CaptureLocation(deliveryFile: folder + "/" + $0, captureFolder: single ? folder : nil, dumpRoot: dumpRoot)
        }
    }

    /// One folder of the dump, listed: its captures when it holds delivery files, then every
    /// child folder (not `evidence/`/`disclosure/` of a capture) up to the depth limit.
    private static func visit(_ dir: DumpDirectory, listed: (entries: [DumpDirectory.Entry], problems: [WalkProblem]),
                              dumpRoot: String, limits: WalkLimits, into found: inout Discovery) {
        found.problems += listed.problems
        let folder = dir.display()
        let contents = CaptureFolderContents(entries: listed.entries, in: dir, limits: limits)
        let hasDelivery = holdsDelivery(contents)
        if hasDelivery {
            found.captures += captureFolder(folder, contents: contents, dumpRoot: dumpRoot)
            inspectCaptureFolder(dir, entries: listed.entries, contents: contents, limits: limits, into: &found)
        }
        for e in listed.entries {
            if hasDelivery && (e.name.text == EvidenceLayout.evidenceFolderName || e.name.text == EvidenceLayout.disclosureFolderName) { continue }
            switch e.kind {
            case .symlink where !hasDelivery:
                // (A capture folder's symlinks were reported by inspectCaptureFolder.)
                found.problems.append(dir.symlinkProblem(e.name))
            case .directory:
                guard dir.path.depth + 1 < limits.maxDepth else {
                    found.problems.append(WalkProblem(path: dir.display(e.name), reason: .tooDeep(limit: limits.maxDepth)))
                    continue
                }
                do {
                    let child = try dir.directory(e.name)
                    do { visit(child, listed: try child.list(limits: limits), dumpRoot: dumpRoot, limits: limits, into: &found) } catch {
                        found.problems.append(error)
                    }
                } catch {
                    found.problems.append(error)
                }
            default: continue
            }
        }
    }

    /// The problems of one capture folder: its symlinks, what its `disclosure/` listing could
    /// not read, and everything under `evidence/` that cannot be read or is not entered.
    private static func inspectCaptureFolder(_ dir: DumpDirectory, entries: [DumpDirectory.Entry], contents: CaptureFolderContents,
                                             limits: WalkLimits, into found: inout Discovery) {
        found.problems += contents.problems
        for e in entries where e.kind == .symlink { found.problems.append(dir.symlinkProblem(e.name)) }
        guard let evidence = entries.first(where: { $0.kind == .directory && $0.name.text == EvidenceLayout.evidenceFolderName }) else { return }
        do { found.problems += try dir.directory(evidence.name).regularFiles(limits: limits).problems } catch {
            found.problems.append(error)
        }
    }

    static func holdsDelivery(_ contents: CaptureFolderContents) -> Bool {
        !contents.deliveryFiles.isEmpty || contents.strays.contains { !$0.contains("/") && isDeliveryName($0) }
    }

    static func isDeliveryName(_ name: String) -> Bool { CaptureFolderContents.isDeliveryName(name) }

    /// `DUMP/captures/<id>` → `DUMP`; any other capture folder is its own root.
    static func dumpRoot(forCaptureFolder folder: String) -> String {
        let p = parent(folder)
        return p.hasSuffix("/captures") ? parent(p) : folder
    }
}

/// Bytewise UTF-8 order (not locale order): the sort every listing in a report uses.
func bytewisePrecedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
