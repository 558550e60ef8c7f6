import Foundation
import Ground

/// Why one capture could not be stored. `code` is stable.
public enum IngestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file's bytes differ from what the verifier hashed (it changed during the ingest).
    case fileChanged(path: String)

    public var code: String {
        switch self {
        case .fileChanged: StatusCode.ingestFileChanged
        }
    }

    public var description: String {
        switch self {
        case .fileChanged(let p): "\(code): \(p) changed while it was being ingested"
        }
    }
}
