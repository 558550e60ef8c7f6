/// A finding about a path as the record states it. The recorded path is never opened; only
/// its last component (the file or folder name) is used, inside the capture's evidence folder.
public enum PathFinding: String, Sendable, Codable, CaseIterable {
    /// Not absolute (does not start with `/`).
    case relative = "path-relative"
    /// Contains a `..` component.
    case parentTraversal = "path-parent-traversal"
    /// Contains a `.` or empty component (other than one trailing `/`).
    case oddComponent = "path-odd-component"
    /// Contains a control character (NUL, LF, CR, …) or a backslash.
    case controlCharacter = "path-control-character"
    /// Has no usable last component (empty, `.`, `..`).
    case noName = "path-no-name"
}

/// The result of checking one recorded on-device path.
public struct RecordedPath: Hashable, Sendable {
    public let recorded: String
    /// The last component, when it is a usable file name.
    public let name: String?
    public let findings: [PathFinding]

    public init(_ recorded: String) {
        self.recorded = recorded
        var f: [PathFinding] = []
        if !recorded.hasPrefix("/") { f.append(.relative) }
        if recorded.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f || $0 == 0x5c }) { f.append(.controlCharacter) }
        var body = Substring(recorded)
        if body.hasSuffix("/") && body.count > 1 { body = body.dropLast() }
        var comps = body.split(separator: "/", omittingEmptySubsequences: false)
        if recorded.hasPrefix("/") { comps.removeFirst() }
        if comps.contains("..") { f.append(.parentTraversal) }
        if comps.contains(where: { $0 == "." || $0.isEmpty }) { f.append(.oddComponent) }
        let last = comps.last.map(String.init) ?? ""
        if last.isEmpty || last == "." || last == ".." || last.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f }) {
            self.name = nil
            f.append(.noName)
        } else {
            self.name = last
        }
        self.findings = f
    }
}
