import Foundation

/// Failures of the custody log, each with a stable `code`.
public enum CustodyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stored event does not parse.
    case malformedEvent(String)
    /// The log's databases are missing (archive older than the custody log, opened read-only).
    case notInitialised

    public var code: String {
        switch self {
        case .malformedEvent: "custody.malformedEvent"
        case .notInitialised: "custody.notInitialised"
        }
    }

    public var description: String {
        switch self {
        case .malformedEvent(let d): "\(code): \(d)"
        case .notInitialised: "\(code): the archive has no custody log"
        }
    }
}
