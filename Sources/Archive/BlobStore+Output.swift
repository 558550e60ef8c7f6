import Ground

extension BlobStore {
    /// Writes blob `id`, re-hashed, to `path` as `get -o` does for every store
    /// (`BlobOutput.write(to:_:)`): a temporary file beside it renamed over `path` only when
    /// the whole blob matched its ID; a FIFO or character device written in place; a directory,
    /// link, block device or socket refused (`cas.output.refused`).
    public func export(_ id: ContentID, to path: String) throws {
        try BlobOutput.write(to: path) { sink in try get(id, sink: sink) }
    }
}
