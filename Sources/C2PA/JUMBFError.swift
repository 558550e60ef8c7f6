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
        case .truncated: "jumbf.truncated"
        case .badBoxLength: "jumbf.badBoxLength"
        case .depthExceeded: "jumbf.depthExceeded"
        case .notASuperbox: "jumbf.notASuperbox"
        case .missingDescription: "jumbf.missingDescription"
        case .badDescription: "jumbf.badDescription"
        case .trailingBytes: "jumbf.trailingBytes"
        case .notAManifestStore: "jumbf.notAManifestStore"
        case .claimAlgorithmMissing: "algorithm.unsupported"
        case .prerelease: "manifest.prerelease"
        }
    }
}
