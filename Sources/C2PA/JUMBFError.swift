import Ground

/// Why a JUMBF structure could not be read. `code` is stable; tests compare against it.
public enum JUMBFError: Error, Equatable, Sendable {
    case truncated(offset: Int)
    case badBoxLength(offset: Int)
    case depthExceeded(offset: Int)
    case notASuperbox(offset: Int)
    case missingDescription(offset: Int)
    case badDescription(offset: Int)
    case trailingBytes(offset: Int)
    case notAManifestStore
    /// c2pa-rs load rules (ManifestStore+LoadRules): a claim without `alg`; pre-release content.
    case claimAlgorithmMissing(manifest: String)
    case prerelease(manifest: String, reason: String)

    public var code: String {
        switch self {
        case .truncated: StatusCode.jumbfTruncated
        case .badBoxLength: StatusCode.jumbfBadBoxLength
        case .depthExceeded: StatusCode.jumbfDepthExceeded
        case .notASuperbox: StatusCode.jumbfNotASuperbox
        case .missingDescription: StatusCode.jumbfMissingDescription
        case .badDescription: StatusCode.jumbfBadDescription
        case .trailingBytes: StatusCode.jumbfTrailingBytes
        case .notAManifestStore: StatusCode.jumbfNotAManifestStore
        case .claimAlgorithmMissing: StatusCode.algorithmUnsupported
        case .prerelease: StatusCode.manifestPrerelease
        }
    }
}
