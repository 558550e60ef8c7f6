import CaptureFormat
import Foundation

extension CaptureVerifier {
    /// The captures at `path`: a media file, a capture folder (`captures/<id>/`), or a dump root
    /// (any folder: walked for folders that directly hold delivery files). Sorted bytewise by
    /// delivery path, deterministic. Nothing is followed through a symlink: a symlink where a
    /// delivery file sits is returned as a location (verify reports it, unread); a symlinked
    /// folder is not entered. `evidence/` and `disclosure/` of a capture are not searched.
    public static func discover(_ path: String) throws(DiscoveryError) -> [CaptureLocation] {
        let abs = EvidenceLayout.normalize(path)
        let probe = EvidenceLayout(captureFolder: abs, dumpRoot: abs)
        switch probe.entry(at: abs) {
        case .absent:
            throw .notFound(path)
        case .directory:
            let contents = CaptureFolderContents(scanning: abs)
            if holdsDelivery(contents) {
                return captureFolder(abs, contents: contents, dumpRoot: dumpRoot(forCaptureFolder: abs))
            }
            guard (try? FileManager.default.contentsOfDirectory(atPath: abs)) != nil else { throw .unreadableFolder(path) }
            var out: [CaptureLocation] = []
            walk(abs, dumpRoot: abs, depth: 0, into: &out)
            return out.sorted { bytewisePrecedes($0.deliveryFile, $1.deliveryFile) }
        case .file, .symlink, .other:
            let folder = parent(abs)
            let name = String(abs.split(separator: "/").last ?? "")
            // Only a folder with evidence/ or disclosure/ can pair; list it only then (a folder
            // of many loose files given one by one stays linear).
            let sideFolders = [EvidenceLayout.evidenceFolderName, EvidenceLayout.disclosureFolderName].contains {
                if case .directory = probe.entry(at: folder + "/" + $0) { return true } else { return false }
            }
            var paired = false
            if sideFolders {
                let contents = CaptureFolderContents(scanning: folder)
                paired = contents.deliveryFiles == [name] && (contents.hasEvidenceFolder || !contents.bundles.isEmpty)
            }
            let root = paired ? dumpRoot(forCaptureFolder: folder) : folder
            return [CaptureLocation(deliveryFile: abs, captureFolder: paired ? folder : nil, dumpRoot: root)]
        }
    }

    /// A folder's delivery files as captures: paired with its evidence only when it is the only one.
    static func captureFolder(_ folder: String, contents: CaptureFolderContents, dumpRoot: String) -> [CaptureLocation] {
        var names = contents.deliveryFiles
        // Symlinks with a delivery extension are captures too: verify reports them unread.
        names += contents.strays.filter { !$0.contains("/") && isDeliveryName($0) }
        let single = contents.deliveryFiles.count == 1
        return names.sorted(by: bytewisePrecedes).map {
            CaptureLocation(deliveryFile: folder + "/" + $0, captureFolder: single ? folder : nil, dumpRoot: dumpRoot)
        }
    }

    private static func walk(_ folder: String, dumpRoot: String, depth: Int, into out: inout [CaptureLocation]) {
        let contents = CaptureFolderContents(scanning: folder)
        let hasDelivery = holdsDelivery(contents)
        if hasDelivery {
            out += captureFolder(folder, contents: contents, dumpRoot: dumpRoot)
        }
        guard depth < 16, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let probe = EvidenceLayout(captureFolder: folder, dumpRoot: dumpRoot)
        for name in names.sorted(by: bytewisePrecedes) {
            if hasDelivery && (name == EvidenceLayout.evidenceFolderName || name == EvidenceLayout.disclosureFolderName) { continue }
            let child = folder + "/" + name
            if case .directory = probe.entry(at: child) { walk(child, dumpRoot: dumpRoot, depth: depth + 1, into: &out) }
        }
    }

    static func holdsDelivery(_ contents: CaptureFolderContents) -> Bool {
        !contents.deliveryFiles.isEmpty || contents.strays.contains { !$0.contains("/") && isDeliveryName($0) }
    }

    static func isDeliveryName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), !name.hasSuffix("/") else { return false }
        return EvidenceLayout.deliveryExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// `DUMP/captures/<id>` → `DUMP`; any other capture folder is its own root.
    static func dumpRoot(forCaptureFolder folder: String) -> String {
        let p = parent(folder)
        return p.hasSuffix("/captures") ? parent(p) : folder
    }
}

/// Bytewise UTF-8 order (not locale order): the sort every listing in a report uses.
func bytewisePrecedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
