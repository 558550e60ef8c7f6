/// An error with a stable, named code from the status-code table (StatusCode.swift): what
/// the CLI prints first, tests compare against and reports carry. This protocol lets a layer
/// that sees errors of several implementations (the blob stores behind `Archive`) read the
/// code without knowing the error's type.
public protocol NamedError: Error {
    /// The code, e.g. `cas.notFound`, `s3.integrity.mismatch`.
    var statusCode: String { get }
}
