import Foundation

/// Where requests go: scheme, host (with port) and region. A custom endpoint
/// (`AWS_ENDPOINT_URL_S3`, e.g. Ceph RGW) is addressed path-style (`http://host/bucket/key`);
/// AWS itself virtual-hosted (`https://bucket.s3.REGION.amazonaws.com/key`) when the bucket name
/// allows it.
public struct S3Endpoint: Sendable, Equatable {
    public let scheme: String
    /// Host and, when not the scheme's default, `:port` — exactly the `Host` header.
    public let host: String
    /// A path the endpoint lives under (no trailing slash), usually empty.
    public let basePath: String
    public let region: String
    /// True for a custom endpoint: the bucket is the first path segment.
    public let pathStyle: Bool

    /// A custom endpoint from an `http://` or `https://` URL (no user, query or fragment).
    public init(url: String, region: String) throws(S3Error) {
        guard let u = URLComponents(string: url), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = u.host, !host.isEmpty, u.user == nil, u.password == nil, u.query == nil, u.fragment == nil,
              host.utf8.allSatisfy({ $0 == 46 || $0 == 45 || $0 == 58 || $0 == 91 || $0 == 93 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        else { throw S3Error(.configuration, "endpoint \(url.debugDescription) is not an http(s)://host[:port][/path] URL") }
        try Self.checkRegion(region)
        self.scheme = scheme
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = u.port {
            guard (1...65535).contains(port) else { throw S3Error(.configuration, "endpoint port \(port) is out of range") }
            self.host = port == defaultPort ? host : "\(host):\(port)"
        } else {
            self.host = host
        }
        var path = u.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        self.basePath = path
        self.region = region
        self.pathStyle = true
    }

    /// AWS S3 in `region`.
    public init(awsRegion region: String) throws(S3Error) {
        try Self.checkRegion(region)
        scheme = "https"
        host = "s3.\(region).amazonaws.com"
        basePath = ""
        self.region = region
        pathStyle = false
    }

    /// From `AWS_ENDPOINT_URL_S3` (else `AWS_ENDPOINT_URL`, else AWS) and `AWS_REGION` (else
    /// `AWS_DEFAULT_REGION`, else `us-east-1`).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(S3Error) -> S3Endpoint {
        let region = [environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]].compactMap { $0 }.first { !$0.isEmpty } ?? "us-east-1"
        if let url = [environment["AWS_ENDPOINT_URL_S3"], environment["AWS_ENDPOINT_URL"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) {
            return try S3Endpoint(url: url, region: region)
        }
        return try S3Endpoint(awsRegion: region)
    }

    private static func checkRegion(_ region: String) throws(S3Error) {
        guard !region.isEmpty, region.utf8.count <= 64,
              region.utf8.allSatisfy({ $0 == 45 || (48...57).contains($0) || (97...122).contains($0) }) else {
            throw S3Error(.configuration, "region \(region.debugDescription) is not a region name")
        }
    }

    /// S3's bucket naming rules (3–63 of a-z 0-9 . -, starting and ending alphanumeric).
    public static func checkBucket(_ bucket: String) throws(S3Error) {
        let b = Array(bucket.utf8)
        let alnum: (UInt8) -> Bool = { (48...57).contains($0) || (97...122).contains($0) }
        guard (3...63).contains(b.count), alnum(b.first!), alnum(b.last!), b.allSatisfy({ alnum($0) || $0 == 45 || $0 == 46 }) else {
            throw S3Error(.configuration, "bucket \(bucket.debugDescription) is not a valid S3 bucket name")
        }
    }

    /// Host header and canonical (encoded) path of `key` in `bucket` (`key` nil: the bucket).
    func address(bucket: String, key: String?) -> (host: String, path: String) {
        let encodedKey = key.map { SigV4.encode($0, keepSlash: true) }
        if pathStyle || bucket.contains(".") {
            return (host, basePath + "/" + bucket + (encodedKey.map { "/" + $0 } ?? (basePath.isEmpty ? "" : "")))
        }
        return ("\(bucket).\(host)", basePath + "/" + (encodedKey ?? ""))
    }
}
