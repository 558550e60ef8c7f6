import Foundation
import HTTP

/// What a HEAD (or GET) says about an object.
public struct S3ObjectInfo: Sendable, Equatable {
    public let size: Int64
    /// The ETag as sent, quotes included.
    public let etag: String
    /// `x-amz-version-id` on a versioned bucket (Object Lock buckets are), else nil.
    public let versionID: String?
    /// `x-amz-object-lock-mode` (`COMPLIANCE`, `GOVERNANCE`) and its retain-until date.
    public let lockMode: String?
    public let retainUntil: Date?

    /// From the headers of a 200 answer to HEAD or GET; every field checked.
    init(headers response: HTTPResponse, operation: String) throws(S3Error) {
        guard let length = response.header("content-length"), let size = S3Error.parseDecimal(length) else {
            throw S3Error(.malformedResponse, "\(operation): no valid Content-Length")
        }
        self.size = size
        etag = response.header("etag") ?? ""
        guard etag.utf8.count <= 1024 else { throw S3Error(.malformedResponse, "\(operation): ETag too long") }
        versionID = try Self.bounded(response.header("x-amz-version-id"), operation)
        lockMode = try Self.bounded(response.header("x-amz-object-lock-mode"), operation)
        if let until = response.header("x-amz-object-lock-retain-until-date") {
            guard let date = UTCTime.parseISO8601(until) else {
                throw S3Error(.malformedResponse, "\(operation): bad x-amz-object-lock-retain-until-date")
            }
            retainUntil = date
        } else {
            retainUntil = nil
        }
    }

    private static func bounded(_ value: String?, _ operation: String) throws(S3Error) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty, value.utf8.count <= 1024 else { throw S3Error(.malformedResponse, "\(operation): bad header value") }
        return value
    }
}

/// One object of a listing.
public struct S3ListedObject: Sendable, Equatable {
    public let key: String
    public let size: Int64
    public let etag: String
}

/// One multipart upload that was started and neither completed nor aborted.
public struct S3MultipartUpload: Sendable, Equatable {
    public let key: String
    public let uploadID: String
    public let initiated: Date
}

/// Object Lock retention for new objects: COMPLIANCE mode (no one, root included, can delete
/// or shorten it) until `duration` seconds after the put.
public struct S3ObjectLockRetention: Sendable, Equatable {
    public let duration: TimeInterval

    public init(days: Int) { duration = TimeInterval(days) * 86_400 }
    public init(seconds: TimeInterval) { duration = seconds }

    /// The request headers for an object put now.
    func headers(now: Date = Date()) -> [(name: String, value: String)] {
        [("x-amz-object-lock-mode", "COMPLIANCE"),
         ("x-amz-object-lock-retain-until-date", UTCTime.iso8601(now.addingTimeInterval(duration.rounded(.up))))]
    }
}
