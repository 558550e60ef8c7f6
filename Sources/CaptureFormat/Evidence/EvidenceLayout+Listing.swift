extension EvidenceLayout {
    /// What is at `path`: from the listing when there is one (relative to the capture folder;
    /// outside it nothing is), else `lstat` through Ground's shim.
    func kind(_ path: String) -> LayoutFileSystem.Kind {
        guard let listing else { return LayoutFileSystem.kind(path) }
        guard let rel = relativeToCaptureFolder(path) else { return .absent }
        return listing.kind(rel)
    }

    /// Entry names of the folder at `path`, sorted bytewise: from the listing when there is one.
    func list(_ path: String) -> [String]? {
        guard let listing else { return LayoutFileSystem.list(path) }
        return relativeToCaptureFolder(path).flatMap { listing.list($0) }
    }

    /// The size of the regular file at `path` (a final symlink is not followed): from the
    /// listing when there is one, else `lstat`.
    public func regularFileSize(_ path: String) -> Int64? {
        if case .regular(let size) = kind(path), size >= 0 { return size }
        return nil
    }

    /// `path` relative to the capture folder ("" for the folder itself), nil when outside it.
    func relativeToCaptureFolder(_ path: String) -> String? {
        if path == captureFolder { return "" }
        let base = captureFolder == "/" ? "/" : captureFolder + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : nil
    }
}
