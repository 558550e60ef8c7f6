import CLMDB
import Foundation

/// Bounding the file-backed RSS of a process that streams large blobs through the map.
///
/// Reading a value through the map faults its pages in, and the kernel maps up to 16
/// neighbouring page-cache pages with each fault ("fault-around"); write transactions fault in
/// the B-tree pages they copy. `Transaction.releasePages(of:)` drops a streamed value's own pages,
/// but not those neighbours nor the B-tree pages, which stayed mapped: ingesting one 1 GB video
/// left ~30 MB of `data.mdb` resident in the process at its peak (issue 13 §3, docs/ingest.md
/// "Session 8"). So every `releaseEvery` bytes streamed (read from the map or written in
/// batches, as the CAS reports them) the process drops all its mappings of the map's used part.
extension Environment {
    /// How many streamed bytes between two drops of the map's mappings.
    public static let releaseEvery = 32 << 20

    /// Counts `count` bytes streamed through the map (a chunk read, a batch written); every
    /// `releaseEvery` bytes, `releaseMappedPages()`.
    public func noteStreamed(_ count: Int) {
        if streamed.add(count, every: Self.releaseEvery) { releaseMappedPages() }
    }

    /// Drops this process's mappings of the map: `madvise(MADV_DONTNEED)` over each mapping of
    /// `data.mdb` (found in `/proc/self/maps` by the file's device and inode: LMDB does not say
    /// where it mapped the file), under the map lock, so no remap runs meanwhile. The map is a
    /// shared file mapping, so nothing is lost: the pages stay in the page cache (dirty ones
    /// too, with `MDB_WRITEMAP`), and the next access maps them again — also for another thread
    /// reading a value borrowed in an open transaction. Only this process's resident memory
    /// changes. Does nothing where `/proc/self/maps` cannot be read.
    public func releaseMappedPages() {
        mapLock.withShared {
            var fd: Int32 = -1
            var st = stat()
            // /proc files state size 0: read to the end, not by the stated size.
            guard mdb_env_get_fd(env, &fd) == 0, fstat(fd, &st) == 0,
                  let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return }
            defer { try? handle.close() }
            guard let data = try? handle.readToEnd() else { return }
            let maps = String(decoding: data, as: UTF8.self)
            for line in maps.split(separator: "\n") {
                let f = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                guard f.count >= 5, f[1].hasSuffix("s"), UInt64(f[4]) == UInt64(st.st_ino),
                      Self.device(f[3]) == UInt64(st.st_dev) else { continue }
                let range = f[0].split(separator: "-")
                guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start,
                      let base = UnsafeMutableRawPointer(bitPattern: start) else { continue }
                _ = madvise(base, Int(end - start), MADV_DONTNEED)
            }
        }
    }

    /// The `dev_t` of a `/proc/self/maps` device field (`major:minor`, hex).
    static func device(_ field: Substring) -> UInt64? {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let major = UInt64(parts[0], radix: 16), let minor = UInt64(parts[1], radix: 16) else { return nil }
        // glibc's makedev.
        return (major & 0xfff) << 8 | (major & ~0xfff) << 32 | (minor & 0xff) | (minor & ~0xff) << 12
    }
}

/// A byte counter that says when it passed another multiple of a step (thread-safe).
final class StreamedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0

    /// Adds `count`; true when the total reached `step` (and restarts it).
    func add(_ count: Int, every step: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        total += count
        guard total >= step else { return false }
        total = 0
        return true
    }
}
