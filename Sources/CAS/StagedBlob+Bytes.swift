extension StagedBlob {
    /// The staged bytes when held in memory (`isInline`), else nil: lets a caller derive
    /// something from exactly the bytes that will be stored under `id`.
    public var inlineBytes: [UInt8]? { inline?.bytes }
}
