import CaptureFormat
import Crypto
import Ground

extension CaptureVerifier {
    /// Verifies capture `c` from one walk (what `exhibit-archive verify` does): the capture
    /// folder walked once by descriptors (`CaptureWalk`), each file opened once and read into
    /// memory (up to `inlineLimit` bytes, while the capture's `captureBudget` lasts) or hashed
    /// through its descriptor (which the verifier then reads), and the snapshot verified with
    /// the walk's listing: presence, listing and symlink questions are answered from that walk,
    /// never by asking the dump again. A file that cannot be opened or changes while hashed is
    /// reported as the path-based checks report it; a file read through its descriptor that
    /// changed by the end makes the report's error `io.sourceChanged`. A loose file (no capture folder) is verified as `verify(_:)` does.
    public func verifyWalked(_ c: CaptureLocation, inlineLimit: Int = 4 << 20, captureBudget: Int = 16 << 20) -> CaptureReport {
        guard let folder = c.captureFolder else { return verify(c) }
        let walk = CaptureWalk(c)
        var files: [String: CaptureSnapshot.File] = [:]
        var unread: [String: FileOpenError] = [:]
        var sizes: [String: Int64] = [:]
        var descriptors: [FileByteSource] = []
        var budget = captureBudget
        for f in walk.files {
            let opened: FileByteSource
            do { opened = try f.open() } catch {
                unread[f.path] = error
                continue
            }
            if opened.count <= Int64(min(inlineLimit, budget)), let bytes = try? opened.readAll(), (try? opened.confirmUnchanged()) != nil {
                budget -= bytes.count
                files[f.path] = .init(id: ContentID(of: bytes), source: MemoryByteSource(bytes), bytes: bytes)
            } else {
                // Hashed through the descriptor (a read or change failure is the evidence
                // checks' `unreadable`), which the verifier then reads.
                do { files[f.path] = .init(id: try EvidenceLayout.sha256(of: opened), source: opened) } catch {
                    var errno = Errno.ioError
                    if case .unreadable(_, let e) = error { errno = Errno(rawValue: e) }
                    unread[f.path] = .cannotOpen(path: f.path, errno: errno)
                    continue
                }
                descriptors.append(opened)
            }
            if f.path.hasPrefix(folder + "/") { sizes[String(f.path.dropFirst(folder.count + 1))] = opened.count }
        }
        var report = verify(CaptureSnapshot(location: c, files: files, listing: walk.listing(stagedSizes: sizes), unread: unread))
        // The descriptors read again by the verifier (C2PA, bundles, libav) are still the
        // files that were hashed; else the capture is not judged (`io.sourceChanged`).
        for d in descriptors {
            do { try d.confirmUnchanged() } catch {
                report.error = .init(code: error.code, message: error.description)
                break
            }
        }
        return report
    }
}
