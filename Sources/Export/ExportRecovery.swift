import Archive
import Foundation
import Ground

/// Cleans up after exports that were killed. A staging folder `.<DIR>.export-<pid>.partial`
/// whose process is dead is either
/// - **removed**: its replication event never committed (the export died before sealing the
///   bag and committing), so no custody event names it; or
/// - **completed**: the event committed (the log names the bag's `External-Identifier`), so
///   the folder is the sealed bag, and it is renamed to `DIR` — when `DIR` is absent or an
///   empty directory; otherwise it is **kept** and reported.
/// Run by every export (the journal's entries, and its destination's folder) and by `gc`.
public enum ExportRecovery {
    public struct Action: Sendable, Equatable {
        public enum Kind: String, Sendable { case removed, completed, kept }
        public let kind: Kind
        public let staging: String
        public let destination: String
        public let pid: Int32
        public let detail: String
    }

    /// The destination and pid a staging folder name encodes, or nil when it is not one.
    public static func parse(_ staging: String) -> (destination: String, pid: Int32)? {
        let name = (staging as NSString).lastPathComponent
        let parent = (staging as NSString).deletingLastPathComponent
        guard name.hasPrefix("."), name.hasSuffix(".partial"),
              let marker = name.range(of: ".export-", options: .backwards) else { return nil }
        let dir = name[name.index(after: name.startIndex)..<marker.lowerBound]
        let pidText = name[marker.upperBound..<name.index(name.endIndex, offsetBy: -".partial".count)]
        guard !dir.isEmpty, let pid = Int32(pidText), pid > 0 else { return nil }
        return (parent + "/" + dir, pid)
    }

    /// True while a process with this pid runs (another user's process counts: `EPERM`).
    static func isAlive(_ pid: Int32) -> Bool {
        pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
    }

    /// Recovers every dead export the journal names and every dead staging folder directly in
    /// `folders`; journal entries whose folder is handled (or gone) are removed.
    public static func run(journal: (any ExportJournalStore)?, custody: (any CustodySource)?, folders: [String] = []) -> [Action] {
        var actions: [Action] = []
        var seen = Set<String>()
        for entry in (try? journal?.entries()) ?? [] where !isAlive(entry.pid) {
            seen.insert(entry.staging)
            let a = recover(entry.staging, pid: entry.pid, custody: custody)
            if let a { actions.append(a) }
            if a?.kind != .kept { try? journal?.end(staging: entry.staging) }
        }
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() {
                let staging = folder + "/" + name
                guard !seen.contains(staging), let (_, pid) = parse(staging), !isAlive(pid) else { continue }
                if let a = recover(staging, pid: pid, custody: custody) { actions.append(a) }
            }
        }
        return actions
    }

    /// One dead staging folder (nil when it no longer exists).
    static func recover(_ staging: String, pid: Int32, custody: (any CustodySource)?) -> Action? {
        guard (try? FileSystem.status(atPath: staging))?.kind == .directory, let (destination, _) = parse(staging) else { return nil }
        if let id = externalIdentifier(staging), let custody, (try? custody.hasReplication(of: id)) == true {
            let empty = (try? FileManager.default.contentsOfDirectory(atPath: destination))?.isEmpty
            if (try? FileSystem.status(atPath: destination)) == nil || empty == true {
                do {
                    try BagWriter.place(staging: staging, destination: destination)
                    return Action(kind: .completed, staging: staging, destination: destination, pid: pid,
                                  detail: "the replication event of \(id) was logged; the sealed bag is now at \(destination)")
                } catch {
                    return Action(kind: .kept, staging: staging, destination: destination, pid: pid, detail: "\(error)")
                }
            }
            return Action(kind: .kept, staging: staging, destination: destination, pid: pid,
                          detail: "the replication event of \(id) was logged but \(destination) is taken; move the sealed bag there by hand")
        }
        do {
            try FileManager.default.removeItem(atPath: staging)
            return Action(kind: .removed, staging: staging, destination: destination, pid: pid,
                          detail: "export killed before its replication event committed; no custody event names it")
        } catch {
            return Action(kind: .kept, staging: staging, destination: destination, pid: pid, detail: "cannot remove: \(error)")
        }
    }

    /// `External-Identifier` of a sealed staging folder's bag-info.txt.
    static func externalIdentifier(_ staging: String) -> String? {
        guard let text = try? String(contentsOfFile: staging + "/bag-info.txt", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("External-Identifier:") {
            return line.dropFirst("External-Identifier:".count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
