/// An entry of a dump the walk could not read or chose not to enter, named by its path (the
/// reversible text form of `FileName`, so a name that is not UTF-8 is reported losslessly)
/// with the reason as a stable code. Every one is reported and makes the run's exit non-zero:
/// nothing is skipped silently (issue 17 items 1 and 4).
public struct WalkProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// A symlink (file or folder): never followed, never entered; `target` as `readlinkat`
        /// gave it, in text form.
        case symlink(target: String)
        /// A folder that could not be opened or listed, or an entry `fstatat` could not describe.
        case unreadable(Errno)
        /// A folder deeper than the walk's depth limit: not entered.
        case tooDeep(limit: Int)
        /// A folder with more entries than the walk's limit: none of them looked at.
        case tooMany(limit: Int)
    }

    /// The entry's path: the walk's root as given, then the relative path's text form.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var code: String {
        switch reason {
        case .symlink: StatusCode.walkSymlink
        case .unreadable: StatusCode.walkUnreadable
        case .tooDeep: StatusCode.walkTooDeep
        case .tooMany: StatusCode.walkTooMany
        }
    }

    /// The reason in words, without the path.
    public var detail: String {
        switch reason {
        case .symlink(let target): "symlink to \(target); not followed"
        case .unreadable(let e): "cannot read: \(e)"
        case .tooDeep(let limit): "deeper than \(limit) levels; not entered"
        case .tooMany(let limit): "more than \(limit) entries; not listed"
        }
    }

    /// The symlink's target, for a symlink.
    public var target: String? {
        if case .symlink(let t) = reason { return t }
        return nil
    }

    public var description: String { "\(code): \(path): \(detail)" }
}

/// The walk's caps: how deep it goes below the root and how many entries one folder may hold.
public struct WalkLimits: Hashable, Sendable {
    public var maxDepth: Int
    public var maxEntries: Int

    public init(maxDepth: Int = 16, maxEntries: Int = 100_000) {
        self.maxDepth = maxDepth
        self.maxEntries = maxEntries
    }

    public static let standard = WalkLimits()
}
