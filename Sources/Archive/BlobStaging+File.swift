import Ground

extension BlobStaging {
    /// The file staged (hashed and uploaded), proved unchanged, and committed; `progress` is
    /// told the whole size once staged. A file that cannot be opened is `cas.input`.
    public func put(file path: String, progress: (Int) -> Void) throws -> (id: ContentID, size: UInt64, isNew: Bool) {
        let file: FileByteSource
        do { file = try FileByteSource(opening: path, limit: FileLimits.current) } catch {
            if case .cannotOpen(let p, let e) = error { throw BlobFileError.input(path: p, errno: e.rawValue) }
            throw error
        }
        let staged = try stage(confirming: file, inlineLimit: 0)
        progress(Int(staged.size))
        let isNew = try commit([staged])[0]
        return (staged.id, staged.size, isNew)
    }
}
