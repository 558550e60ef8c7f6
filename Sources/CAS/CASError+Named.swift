import Ground

extension CASError: NamedError {
    public var statusCode: String { code }
}
