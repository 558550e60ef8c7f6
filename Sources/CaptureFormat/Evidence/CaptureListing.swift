import Ground

/// A capture folder's entries as a list of relative paths (to the capture folder), for layout
/// checks that must not ask the file system: `reverify` lists a record's stored files, so
/// "is `evidence/audio.caf` there", the ring folder's frames, the unreferenced files and the
/// disclosure bundles are answered from what the archive holds. Folders are implied by the
/// paths below them. A path that is empty, absolute or has an empty, `.` or `..` component
/// is refused (`add` returns false): nothing in a listing lies outside its capture folder.
public struct CaptureListing: Equatable, Sendable {
    /// Relative path → what is there (folders included, implied by their contents).
    private(set) var kinds: [String: LayoutFileSystem.Kind] = [:]

    public init() {}

    /// A regular file of `size` bytes at `relativePath`; false when the path is refused or a
    /// folder on its way is already listed as something else.
    @discardableResult
    public mutating func addFile(_ relativePath: String, size: Int64) -> Bool {
        add(relativePath, .regular(size: size))
    }

    /// A symlink at `relativePath` (never followed), with its target as read.
    @discardableResult
    public mutating func addSymlink(_ relativePath: String, target: String) -> Bool {
        add(relativePath, .symlink(target: target))
    }

    /// A folder at `relativePath` (one with entries is implied by them; this lists an empty one).
    @discardableResult
    public mutating func addFolder(_ relativePath: String) -> Bool {
        kinds[relativePath].map { $0 == .directory } ?? add(relativePath, .directory)
    }

    /// An entry that is neither a regular file, a folder nor a symlink (a FIFO, a device).
    @discardableResult
    public mutating func addOther(_ relativePath: String) -> Bool {
        add(relativePath, .other)
    }

    private mutating func add(_ relativePath: String, _ kind: LayoutFileSystem.Kind) -> Bool {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return false }
        var folder = ""
        for name in parts.dropLast() {
            folder += (folder.isEmpty ? "" : "/") + name
            switch kinds[folder] {
            case nil: kinds[folder] = .directory
            case .directory?: continue
            default: return false
            }
        }
        guard kinds[relativePath] == nil else { return false }
        kinds[relativePath] = kind
        return true
    }

    /// What is at `relativePath` ("" is the capture folder itself).
    func kind(_ relativePath: String) -> LayoutFileSystem.Kind {
        relativePath.isEmpty ? .directory : kinds[relativePath] ?? .absent
    }

    /// Entry names of the folder `relativePath`, sorted bytewise; nil when it is not a folder.
    func list(_ relativePath: String) -> [String]? {
        guard case .directory = kind(relativePath) else { return nil }
        let prefix = relativePath.isEmpty ? "" : relativePath + "/"
        return kinds.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }
            .map { String($0.dropFirst(prefix.count)) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The size of the regular file at `relativePath`, else nil.
    public func size(of relativePath: String) -> Int64? {
        if case .regular(let size) = kind(relativePath) { return size }
        return nil
    }

    /// `disclosure/*.bundle.json` regular files, as `CaptureFolderContents.bundles` lists them.
    public var bundles: [String] {
        let folder = EvidenceLayout.disclosureFolderName
        return (list(folder) ?? []).filter { name in
            guard name.hasSuffix(EvidenceLayout.bundleSuffix), case .regular = kind(folder + "/" + name) else { return false }
            return true
        }.map { folder + "/" + $0 }
    }
}
