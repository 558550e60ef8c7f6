import Ground

/// The ring-buffer listing digest (seed: "the ring hashes its listing — every frame's own
/// digest beside its name, sorted by name, hashed together").
///
/// Bytes hashed: for each frame, sorted by name in bytewise UTF-8 order,
/// `<64 lowercase hex SHA-256 of the frame's bytes> SP SP <name> LF`; the digest is SHA-256 of
/// their concatenation. An empty folder gives SHA-256 of the empty input.
public enum RingListing {
    public enum ListingError: Error, Equatable, Sendable {
        case invalidName(String)
        case duplicateName(String)

        public var code: String {
            switch self {
            case .invalidName: StatusCode.ringInvalidName
            case .duplicateName: StatusCode.ringDuplicateName
            }
        }
    }

    /// The exact listing bytes.
    public static func listing(_ frames: [(name: String, sha256: ContentID)]) throws(ListingError) -> [UInt8] {
        for f in frames where !isValidName(f.name) { throw .invalidName(f.name) }
        let sorted = frames.sorted { utf8Precedes($0.name, $1.name) }
        var out: [UInt8] = []
        for (i, f) in sorted.enumerated() {
            if i > 0, sorted[i - 1].name == f.name { throw .duplicateName(f.name) }
            out += Array(f.sha256.hex.utf8)
            out += [0x20, 0x20]
            out += Array(f.name.utf8)
            out.append(0x0a)
        }
        return out
    }

    /// The ring digest committed as `ringBufferSha256`.
    public static func digest(_ frames: [(name: String, sha256: ContentID)]) throws(ListingError) -> ContentID {
        ContentID.sha256(of: try listing(frames))
    }

    /// A frame name: non-empty, not `.`/`..`, no `/`, LF, CR or NUL.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name != ".", name != ".." else { return false }
        return !name.utf8.contains { $0 == 0x2f || $0 == 0x0a || $0 == 0x0d || $0 == 0 }
    }
}
