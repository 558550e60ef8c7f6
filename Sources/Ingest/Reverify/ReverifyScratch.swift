import Foundation

/// Stale scratch folders of `reverify` (`$TMPDIR/exhibit-reverify-<pid>-<uuid>`). `reverify`
/// no longer makes any (it reads records straight from the CAS, `Reverifier+Snapshot.swift`);
/// releases before it exported each record to such a folder, and a run of theirs that was
/// killed left it behind. `gc` still removes those whose process is dead.
public enum ReverifyScratch {
    public static let prefix = "exhibit-reverify-"

    /// Removes every `exhibit-reverify-<pid>-…` folder in `directory` whose pid is not a live
    /// process; returns the folders removed. Entries are checked with `lstat` (a link named so
    /// is removed as a link, never followed).
    public static func removeStale(in directory: String = NSTemporaryDirectory()) -> [(path: String, pid: Int32)] {
        var removed: [(String, Int32)] = []
        let dir = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() where name.hasPrefix(prefix) {
            guard let pidText = name.dropFirst(prefix.count).split(separator: "-").first,
                  let pid = Int32(pidText), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            let path = dir + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append((path, pid)) }
        }
        return removed
    }
}
