import CaptureFormat
import Foundation
import Ground

extension CaptureVerifier {
    /// Label used when the manifest has no readable `camera.contextTree`: a bundle then has no
    /// signed root to be checked against, so it is not verified (ours, beside the seed's labels).
    public static let noSignedRootLabel = "no-signed-context-tree"

    /// Every `disclosure/*.bundle.json` of the capture, checked against the signed tree.
    func checkBundles(folder: String, listing: CaptureListing? = nil, tree: ContextTreeAssertion?, files: inout FileLedger,
                      into report: inout CaptureReport) {
        let bundles = listing?.bundles ?? CaptureFolderContents(scanning: folder).bundles
        for rel in bundles.sorted(by: bytewisePrecedes) {
            let path = folder + "/" + rel
            report.disclosure.append(checkBundle(path: path, relative: files.dumpRelative(path), tree: tree, files: &files))
        }
    }

    func checkBundle(path: String, relative: String, tree: ContextTreeAssertion?, files: inout FileLedger) -> CaptureReport.Disclosure {
        func failed(_ label: String, _ detail: String, profile: String = "") -> CaptureReport.Disclosure {
            .init(file: relative, profile: profile, result: "failed", failures: [.init(label: label, claimId: nil, detail: detail)],
                  openedLeaves: 0, withheldCount: 0)
        }
        let limit = Self.bundleSizeLimit
        let bytes: [UInt8]
        let digest: ContentID
        if let b = files.knownContents[path], let known = files.known[path] {
            // The caller's copy and digest (hash once): not read again.
            guard b.count <= limit else {
                return failed(BundleFailure.Label.malformedBundle.rawValue, ReadProblem("larger than \(limit) bytes").description)
            }
            bytes = b
            digest = known
        } else if let source = files.sources[path], let known = files.known[path] {
            // Streamed at staging (over the inline limit): read from the staged chunks.
            guard source.count <= Int64(limit) else {
                return failed(BundleFailure.Label.malformedBundle.rawValue, ReadProblem("larger than \(limit) bytes").description)
            }
            do { bytes = try source.read(at: 0, count: Int(source.count)) } catch {
                return failed(BundleFailure.Label.malformedBundle.rawValue, ReadProblem("\(error)").description)
            }
            digest = known
        } else if files.listing != nil {
            // Listed by the caller's snapshot but not read by it: its reason, never a second try.
            let why = files.unread[path].map { error -> String in
                switch error {
                case .notRegularFile, .symlink: "not a regular file: \(path)"
                case .tooLarge(_, _, let max): "larger than \(max) bytes"
                case .cannotOpen: "cannot open \(path)"
                }
            }
            return failed(BundleFailure.Label.malformedBundle.rawValue, ReadProblem(why ?? "cannot open \(path)").description)
        } else {
            switch Self.readSmallFile(path, limit: limit) {
            case .success(let b): bytes = b
            case .failure(let why): return failed(BundleFailure.Label.malformedBundle.rawValue, why.description)
            }
            digest = ContentID.sha256(of: bytes)
        }
        files.add(role: .bundle, path: path, sha256: digest, size: UInt64(bytes.count))
        let bundle: DisclosureBundle
        do { bundle = try DisclosureBundle(json: Data(bytes)) } catch {
            return failed(error.code, error.detail)
        }
        guard let tree else {
            return failed(Self.noSignedRootLabel, "the manifest carries no readable camera.contextTree to check the bundle against",
                          profile: bundle.profile)
        }
        let v = bundle.verify(against: tree)
        return .init(file: relative, profile: v.profile, result: v.result,
                     failures: v.failures.map { .init(label: $0.label.rawValue, claimId: $0.claimId, detail: $0.detail) },
                     openedLeaves: v.leaves.count, withheldCount: v.withheldCount)
    }

    /// Largest disclosure bundle read.
    static let bundleSizeLimit = 16 << 20

    /// Reads a regular file of at most `limit` bytes, never through a symlink.
    static func readSmallFile(_ path: String, limit: Int) -> Result<[UInt8], ReadProblem> {
        guard let h = FileHandle(forReadingAtPath: path) else { return .failure(ReadProblem("cannot open \(path)")) }
        defer { try? h.close() }
        guard let size = regularFileSize(path) else { return .failure(ReadProblem("not a regular file: \(path)")) }
        guard size <= UInt64(limit) else { return .failure(ReadProblem("larger than \(limit) bytes")) }
        do {
            let d = try h.read(upToCount: limit + 1) ?? Data()
            guard d.count <= limit else { return .failure(ReadProblem("larger than \(limit) bytes")) }
            return .success([UInt8](d))
        } catch {
            return .failure(ReadProblem("read failed: \(path)"))
        }
    }

    struct ReadProblem: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
