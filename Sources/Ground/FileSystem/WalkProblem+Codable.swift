/// JSON of a walk problem, as `ingest --json`'s summary and `verify --json` write it:
/// `{"code":"walk.symlink","path":"…","detail":"…","target":"/etc"}`; `errno` for
/// `walk.unreadable`, `limit` for `walk.tooDeep`/`walk.tooMany` (docs/design.md "The dump walk").
extension WalkProblem: Codable {
    enum CodingKeys: String, CodingKey { case code, path, detail, target, errno, limit }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(path, forKey: .path)
        try c.encode(detail, forKey: .detail)
        switch reason {
        case .symlink(let target): try c.encode(target, forKey: .target)
        case .unreadable(let e): try c.encode(e.rawValue, forKey: .errno)
        case .tooDeep(let limit), .tooMany(let limit): try c.encode(limit, forKey: .limit)
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let code = try c.decode(String.self, forKey: .code)
        let path = try c.decode(String.self, forKey: .path)
        let reason: Reason
        switch code {
        case StatusCode.walkSymlink: reason = .symlink(target: try c.decode(String.self, forKey: .target))
        case StatusCode.walkUnreadable: reason = .unreadable(Errno(rawValue: try c.decode(Int32.self, forKey: .errno)))
        case StatusCode.walkTooDeep: reason = .tooDeep(limit: try c.decode(Int.self, forKey: .limit))
        case StatusCode.walkTooMany: reason = .tooMany(limit: try c.decode(Int.self, forKey: .limit))
        default: throw DecodingError.dataCorruptedError(forKey: .code, in: c, debugDescription: "not a walk code: \(code)")
        }
        self.init(path: path, reason: reason)
    }
}
