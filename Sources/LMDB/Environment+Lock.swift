import CLMDB
import Foundation
import Ground

extension Environment {
    /// True when some process has the environment in `directory` open. Every LMDB process
    /// holds a shared `fcntl` lock on byte 0 of `lock.mdb` while the environment is open
    /// (`mdb_env_share_locks`); `F_GETLK` asks whether an exclusive lock there would conflict,
    /// which needs only read access to `lock.mdb`. Locks of this process never conflict (POSIX
    /// record locks are per process), so its own open environments do not count.
    /// Nil when `lock.mdb` cannot be opened for reading (then the answer is unknown).
    public static func isInUse(directory: String) -> Bool? {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(directory + "/lock.mdb", .read) } catch {
            return error == .noSuchFileOrDirectory ? false : nil
        }
        let fd = file.rawValue
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = 0
        probe.l_len = 1
        guard fcntl(fd, F_GETLK, &probe) == 0 else { return nil }
        return withExtendedLifetime(file) { probe.l_type != Int16(F_UNLCK) }
    }
}
