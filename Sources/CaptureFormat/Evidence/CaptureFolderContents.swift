import Ground

/// The top level of one capture folder: how a reader pairs a delivery file with its sidecars.
/// Read through the folder's descriptor (`DumpDirectory`): `disclosure/` is opened relative to
/// it, nothing is followed through a symlink. Names are the reversible text form of `FileName`.
public struct CaptureFolderContents: Hashable, Sendable {
    /// Regular files at the top level whose extension is a delivery type.
    public var deliveryFiles: [String] = []
    /// `disclosure/*.bundle.json` regular files.
    public var bundles: [String] = []
    public var hasEvidenceFolder = false
    /// Top-level or disclosure entries that are symlinks (never followed) or unexpected.
    public var strays: [String] = []
    /// Entries that could not be read (an unreadable `disclosure/`, an entry `fstatat` could
    /// not describe, a folder over the entry limit): reported by the walk, never skipped.
    public var problems: [WalkProblem] = []

    /// Nothing found.
    public init() {}

    /// The folder at `folder` (opened `O_DIRECTORY|O_NOFOLLOW`); an unopenable folder has no
    /// contents and its problem.
    public init(scanning folder: String, limits: WalkLimits = .standard) {
        do { self.init(listing: try DumpDirectory.open(root: folder), limits: limits) } catch {
            self.init()
            problems = [error]
        }
    }

    /// The folder `dir`, listed here.
    public init(listing dir: DumpDirectory, limits: WalkLimits = .standard) {
        do {
            let listed = try dir.list(limits: limits)
            self.init(entries: listed.entries, in: dir, limits: limits)
            problems = listed.problems + problems
        } catch {
            self.init()
            problems = [error]
        }
    }

    /// The folder `dir` from a listing the caller made of it.
    public init(entries: [DumpDirectory.Entry], in dir: DumpDirectory, limits: WalkLimits = .standard) {
        for e in entries {
            let name = e.name.text
            switch e.kind {
            case .regular where Self.isDeliveryName(name):
                deliveryFiles.append(name)
            case .directory where name == EvidenceLayout.evidenceFolderName:
                hasEvidenceFolder = true
            case .directory where name == EvidenceLayout.disclosureFolderName:
                scanDisclosure(dir, e.name, limits: limits)
            default:
                strays.append(name)
            }
        }
    }

    private mutating func scanDisclosure(_ dir: DumpDirectory, _ name: FileName, limits: WalkLimits) {
        let listed: (entries: [DumpDirectory.Entry], problems: [WalkProblem])
        do { listed = try dir.directory(name).list(limits: limits) } catch {
            problems.append(error)
            return
        }
        problems += listed.problems
        for b in listed.entries {
            let rel = name.text + "/" + b.name.text
            if b.name.text.hasSuffix(EvidenceLayout.bundleSuffix), b.kind == .regular { bundles.append(rel) } else { strays.append(rel) }
        }
    }

    /// A name with a delivery extension (`IMG_0001.jpg`): the content decides how it is read.
    public static func isDeliveryName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else { return false }
        return EvidenceLayout.deliveryExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
