import Foundation

/// The access key, secret and optional session token of a request signer. They come only from
/// the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`) and are
/// never stored, printed or logged: `description`, `debugDescription` and the mirror are
/// redacted, and `redact` scrubs them from any text (a server's error message) before it is kept.
public struct S3Credentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let accessKeyID: String
    let secretAccessKey: String
    let sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// Reads the credentials from `environment`; `s3.credentials.missing` when a key is unset.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(S3Error) -> S3Credentials {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
              let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            throw S3Error(.credentialsMissing, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set")
        }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    public var description: String { "S3Credentials(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// `text` with every occurrence of the key ID, the secret and the token replaced by
    /// `<redacted>`.
    public func redact(_ text: String) -> String {
        var out = text
        for secret in [secretAccessKey, sessionToken, accessKeyID].compactMap({ $0 }) where secret.count >= 4 {
            out = out.replacingOccurrences(of: secret, with: "<redacted>")
        }
        return out
    }
}
