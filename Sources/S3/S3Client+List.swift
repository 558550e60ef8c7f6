import Foundation

extension S3Client {
    /// One page of ListObjectsV2 (at most `maxKeys`, ≤ 1000) under `prefix`; the token continues.
    public func listObjects(bucket: String, prefix: String, continuation: String? = nil,
                            maxKeys: Int = 1000) throws -> (objects: [S3ListedObject], next: String?) {
        let root = try document { _ in
            var q = [("list-type", "2"), ("prefix", prefix), ("max-keys", String(min(max(maxKeys, 1), 1000)))]
            if let continuation { q.append(("continuation-token", continuation)) }
            return S3Request("ListObjectsV2", "GET", bucket: bucket, query: q)
        }
        guard root.name == "ListBucketResult" else { throw S3Error(.malformedResponse, "ListObjectsV2: root <\(root.name)>") }
        var objects: [S3ListedObject] = []
        for c in root.children("Contents") {
            let key = try c.required("Key")
            guard key.hasPrefix(prefix) else { throw S3Error(.malformedResponse, "ListObjectsV2: a key outside the prefix") }
            objects.append(S3ListedObject(key: key, size: try c.requiredInteger("Size"), etag: c.child("ETag")?.text ?? ""))
        }
        guard objects.count <= 1000 else { throw S3Error(.malformedResponse, "ListObjectsV2: more than 1000 keys in a page") }
        let next = try Self.continuation(root, truncated: "IsTruncated", token: "NextContinuationToken", operation: "ListObjectsV2")
        if next != nil, next == continuation { throw S3Error(.malformedResponse, "ListObjectsV2: the listing does not advance") }
        return (objects, next)
    }

    /// Every version and delete marker of exactly `key` (ListObjectVersions, paginated).
    public func versions(bucket: String, key: String) throws -> [(versionID: String, isDeleteMarker: Bool)] {
        var out: [(String, Bool)] = []
        var marker: (key: String, version: String)?
        repeat {
            let root = try document { _ in
                var q = [("versions", ""), ("prefix", key)]
                if let marker { q += [("key-marker", marker.key), ("version-id-marker", marker.version)] }
                return S3Request("ListObjectVersions", "GET", bucket: bucket, query: q)
            }
            guard root.name == "ListVersionsResult" else { throw S3Error(.malformedResponse, "ListObjectVersions: root <\(root.name)>") }
            for v in root.children where (v.name == "Version" || v.name == "DeleteMarker") {
                if try v.required("Key") == key { out.append((try v.required("VersionId"), v.name == "DeleteMarker")) }
            }
            guard out.count <= 100_000 else { throw S3Error(.malformedResponse, "ListObjectVersions: too many versions") }
            if root.child("IsTruncated")?.text == "true" {
                let next = (try root.required("NextKeyMarker"), try root.required("NextVersionIdMarker"))
                if let marker, marker == next { throw S3Error(.malformedResponse, "ListObjectVersions: the listing does not advance") }
                marker = next
            } else {
                marker = nil
            }
        } while marker != nil
        return out
    }

    /// `IsTruncated` and its continuation token, strictly.
    static func continuation(_ root: XMLElement, truncated: String, token: String, operation: String) throws(S3Error) -> String? {
        switch root.child(truncated)?.text {
        case "true":
            let next = try root.required(token)
            guard !next.isEmpty, next.utf8.count <= 4096 else { throw S3Error(.malformedResponse, "\(operation): bad \(token)") }
            return next
        case "false", nil: return nil
        case let other?: throw S3Error(.malformedResponse, "\(operation): <\(truncated)> is \(other.debugDescription)")
        }
    }
}
