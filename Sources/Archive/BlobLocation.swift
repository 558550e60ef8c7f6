/// Where an archive's blobs live, as `stats` and `show` print it and as `init --blobs` takes
/// it. Never holds a credential: S3 credentials come from the environment only.
public enum BlobLocation: Sendable, Equatable, CustomStringConvertible {
    /// Chunks in the archive directory's LMDB environment (the embedded default).
    case lmdb(directory: String)
    /// One object per blob under `PREFIX/blobs/` in an S3 bucket; `endpoint` nil means AWS's
    /// regional endpoint.
    case s3(bucket: String, prefix: String, endpoint: String?, region: String)

    /// `lmdb:DIR` or `s3://BUCKET[/PREFIX]` (with ` at ENDPOINT (REGION)`).
    public var description: String {
        switch self {
        case .lmdb(let directory): "lmdb:\(directory)"
        case .s3(_, _, let endpoint, let region): "\(uri) at \(endpoint ?? "AWS") (\(region))"
        }
    }

    /// `s3://BUCKET[/PREFIX]` for S3, `lmdb:DIR` for LMDB.
    public var uri: String {
        switch self {
        case .lmdb(let directory): "lmdb:\(directory)"
        case .s3(let bucket, let prefix, _, _): "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)")
        }
    }

    /// The kind as a word for JSON (`lmdb`, `s3`).
    public var kind: String {
        switch self {
        case .lmdb: "lmdb"
        case .s3: "s3"
        }
    }
}
