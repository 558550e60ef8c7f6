import Ground

/// Where one capture sits: its delivery file, the capture folder that holds its `evidence/`
/// and `disclosure/` (nil for a loose file, or when a folder holds several delivery files and
/// pairing would be a guess), and the dump root that symlink escapes are judged against.
/// All paths absolute and lexically normalised.
public struct CaptureLocation: Sendable, Hashable, Codable {
    public var deliveryFile: String
    public var captureFolder: String?
    public var dumpRoot: String

    public init(deliveryFile: String, captureFolder: String?, dumpRoot: String) {
        self.deliveryFile = deliveryFile
        self.captureFolder = captureFolder
        self.dumpRoot = dumpRoot
    }
}

/// Why `CaptureVerifier.discover` found nothing to examine. `code` is stable.
public enum DiscoveryError: Error, Equatable, Sendable {
    /// Nothing at the path.
    case notFound(String)
    /// A folder that could not be listed.
    case unreadableFolder(String)

    public var code: String {
        switch self {
        case .notFound: StatusCode.discoverNotFound
        case .unreadableFolder: StatusCode.discoverUnreadableFolder
        }
    }

    public var message: String {
        switch self {
        case .notFound(let p): "no such file or folder: \(p)"
        case .unreadableFolder(let p): "cannot list folder: \(p)"
        }
    }
}
