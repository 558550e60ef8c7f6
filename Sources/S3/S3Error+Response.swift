import HTTP

extension S3Error {
    /// The error an answer outside 2xx stands for, from its status and its `<Error><Code>`.
    static func from(_ response: HTTPResponse, operation: String, credentials: S3Credentials) -> S3Error {
        var serverCode = "", message = ""
        if let root = try? XMLDocumentParser.parse(response.errorBody), root.name == "Error" {
            serverCode = root.child("Code")?.text ?? ""
            message = root.child("Message")?.text ?? ""
        }
        let text = message.isEmpty ? operation : "\(operation): \(credentials.redact(message))"
        return classify(status: response.status, serverCode: credentials.redact(serverCode), message: text)
    }

    static func classify(status: Int, serverCode: String, message: String) -> S3Error {
        let code: Code
        switch serverCode {
        case "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken", "TokenRefreshRequired",
             "InvalidSecurity":
            code = .credentialsRejected
        case "AccessDenied", "AllAccessDisabled": code = .accessDenied
        case "NoSuchBucket": code = .bucketNotFound
        case "NoSuchKey", "NoSuchUpload", "NoSuchVersion": code = .notFound
        case "BadDigest", "XAmzContentSHA256Mismatch", "InvalidDigest": code = .integrityRejected
        default:
            switch status {
            case 404: code = .notFound
            case 500...599: code = .unavailable
            default: code = .rejected
            }
        }
        return S3Error(code, message, status: status, serverCode: serverCode)
    }

    /// `<Error><Code>` of an error body, empty when there is none.
    static func serverCode(in body: [UInt8]) -> String {
        guard !body.isEmpty, let root = try? XMLDocumentParser.parse(body), root.name == "Error" else { return "" }
        return root.child("Code")?.text ?? ""
    }
}
