import CLI
import Ground

/// How `ingest` and `verify` print a walk problem (README "Walk problems"): text
/// `walk: walk.symlink: DUMP/captures/x/evidence: symlink to /etc; not followed` on stderr;
/// JSON `{"type":"walk","code":…,"path":…,"detail":…}` with `target`, `errno` or `limit`.
enum WalkProblemOutput {
    static func json(_ p: WalkProblem) -> JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string("walk")), ("code", .string(p.code)), ("path", .string(p.path)),
                                             ("detail", .string(p.detail))]
        switch p.reason {
        case .symlink(let target): fields.append(("target", .string(target)))
        case .unreadable(let e): fields.append(("errno", .int(Int64(e.rawValue))))
        case .tooDeep(let limit), .tooMany(let limit): fields.append(("limit", .int(Int64(limit))))
        }
        return .object(fields)
    }

    static func text(_ p: WalkProblem) -> String { "walk: \(p)" }
}
