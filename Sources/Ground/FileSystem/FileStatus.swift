/// What `fstat`/`fstatat` (never following a final symlink) says about one entry: its kind,
/// size and the identity fields a reader compares before and after reading it.
public struct FileStatus: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case regular, directory, symlink
        case characterDevice = "character-device", blockDevice = "block-device"
        case fifo, socket, unknown
    }

    /// Enough to notice that a file changed while it was read: device, inode, size, and the
    /// modification and status-change times to the nanosecond. Any write changes mtime and
    /// ctime (and setting mtime back changes ctime), a replaced file changes the inode.
    public struct Identity: Hashable, Sendable, CustomStringConvertible {
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64
        public var modified: Timestamp
        public var changed: Timestamp

        public var description: String {
            "dev \(device) ino \(inode) size \(size) mtime \(modified) ctime \(changed)"
        }
    }

    /// Seconds and nanoseconds since the epoch.
    public struct Timestamp: Hashable, Sendable, CustomStringConvertible {
        public var seconds: Int64
        public var nanoseconds: Int64
        public var description: String { "\(seconds).\(String(nanoseconds + 1_000_000_000).dropFirst())" }
    }

    public var kind: Kind
    /// Permission bits (`st_mode & 07777`).
    public var permissions: UInt32
    public var identity: Identity

    public var size: Int64 { identity.size }
    public var isRegularFile: Bool { kind == .regular }
    public var isDirectory: Bool { kind == .directory }
}
