import Foundation
import Ground

/// Failures of the custody log, each with a stable `code`.
public enum CustodyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stored event does not parse.
    case malformedEvent(String)
    /// The log's databases are missing (archive older than the custody log, opened read-only).
    case notInitialised

    public var code: String {
        switch self {
        case .malformedEvent: StatusCode.custodyMalformedEvent
        case .notInitialised: StatusCode.custodyNotInitialised
        }
    }

    public var description: String {
        switch self {
        case .malformedEvent(let d): "\(code): \(d)"
        case .notInitialised: "\(code): the archive has no custody log"
        }
    }
}

extension CustodyError: NamedError {
    public var statusCode: String { code }
}
