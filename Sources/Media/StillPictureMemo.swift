import Ground
import TurboJPEG

/// The delivery stills decoded by `Parallax.measure`, kept for the thumbnail of the same capture
/// so a still is decoded once (issue 13). Keyed by the SHA-256 of the JPEG's bytes — the
/// delivery blob's content ID, which ingest already has — so an entry can only ever serve the
/// very bytes it was decoded from. `take` removes the entry; at most `capacity` entries (and
/// `maxBytes` of planes) are held, the oldest dropped first, so a parallax without a thumbnail
/// after it (export, `--no-media` paths, tests) costs nothing lasting.
public enum StillPictureMemo {
    static let capacity = 8
    static let maxBytes = 16 << 20

    private static let entries = Locked<[(id: ContentID, planes: JPEGPlanes)]>([])

    static func put(_ id: ContentID, _ planes: JPEGPlanes) {
        guard planes.byteCount <= maxBytes else { return }
        entries.withLock { list in
            list.removeAll { $0.id == id }
            list.append((id, planes))
            while list.count > capacity || list.reduce(0, { $0 + $1.planes.byteCount }) > maxBytes { list.removeFirst() }
        }
    }

    static func take(_ id: ContentID) -> JPEGPlanes? {
        entries.withLock { list in
            guard let i = list.firstIndex(where: { $0.id == id }) else { return nil }
            return list.remove(at: i).planes
        }
    }

    /// Entries held (for tests).
    public static var count: Int { entries.withLock { $0.count } }
}
