import Crypto
import Foundation

extension S3Client {
    /// CreateMultipartUpload: the new upload's ID.
    public func createMultipartUpload(bucket: String, key: String, headers: [(name: String, value: String)] = []) throws -> String {
        let root = try document { _ in
            var r = S3Request("CreateMultipartUpload", "POST", bucket: bucket, key: key, query: [("uploads", "")])
            r.headers = headers
            return r
        }
        let id = try root.required("UploadId")
        guard root.name == "InitiateMultipartUploadResult", !id.isEmpty, id.utf8.count <= 1024 else {
            throw S3Error(.malformedResponse, "CreateMultipartUpload: no valid UploadId")
        }
        return id
    }

    /// UploadPart of `bytes` (≥ 5 MiB but for the last part), signed with their SHA-256 and sent
    /// with their MD5: the server checks both. Returns the part's ETag.
    public func uploadPart(bucket: String, key: String, uploadID: String, partNumber: Int,
                           bytes: UnsafeRawBufferPointer, sha256Hex: String, md5: [UInt8]) throws -> String {
        let response = try execute { _ in
            var r = S3Request("UploadPart", "PUT", bucket: bucket, key: key,
                              query: [("partNumber", String(partNumber)), ("uploadId", uploadID)])
            r.setBody(bytes, sha256Hex: sha256Hex, md5: md5)
            // A part is never refused for being there already: no 100-continue round trip.
            r.expectContinue = false
            return r
        }
        guard response.isSuccess else {
            throw S3Error.from(response, operation: "UploadPart \(partNumber) of \(key)", credentials: credentials)
        }
        guard let etag = response.header("etag"), !etag.isEmpty, etag.utf8.count <= 1024 else {
            throw S3Error(.malformedResponse, "UploadPart \(partNumber): no ETag")
        }
        return etag
    }

    /// CompleteMultipartUpload with the parts in order. A retry that finds the upload gone
    /// (it completed, but the answer was lost) is a success when the object is there with
    /// `expectedSize` bytes.
    public func completeMultipartUpload(bucket: String, key: String, uploadID: String, etags: [String],
                                        expectedSize: Int64) throws {
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for (i, etag) in etags.enumerated() {
            xml += "<Part><PartNumber>\(i + 1)</PartNumber><ETag>\(Self.escapeXML(etag))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let body = Array(xml.utf8)
        let sha = Hex.encode(MessageDigest.sha256(body))
        do {
            let root = try body.withUnsafeBytes { bytes in
                try document { _ in
                    var r = S3Request("CompleteMultipartUpload", "POST", bucket: bucket, key: key, query: [("uploadId", uploadID)])
                    r.headers.append(("Content-Type", "application/xml"))
                    r.setBody(bytes, sha256Hex: sha)
                    return r
                }
            }
            guard root.name == "CompleteMultipartUploadResult" else {
                throw S3Error(.malformedResponse, "CompleteMultipartUpload: root <\(root.name)>")
            }
        } catch let e as S3Error where e.serverCode == "NoSuchUpload" {
            guard let info = try head(bucket: bucket, key: key), info.size == expectedSize else { throw e }
        }
    }

    /// AbortMultipartUpload; an upload already gone is not an error.
    public func abortMultipartUpload(bucket: String, key: String, uploadID: String) throws {
        let response = try execute { _ in
            S3Request("AbortMultipartUpload", "DELETE", bucket: bucket, key: key, query: [("uploadId", uploadID)])
        }
        guard response.isSuccess || response.status == 404 else {
            throw S3Error.from(response, operation: "AbortMultipartUpload \(key)", credentials: credentials)
        }
    }

    /// ListMultipartUploads under `prefix`, every page.
    public func multipartUploads(bucket: String, prefix: String) throws -> [S3MultipartUpload] {
        var out: [S3MultipartUpload] = []
        var marker: (key: String, upload: String)?
        repeat {
            let root = try document { _ in
                var q = [("uploads", ""), ("prefix", prefix)]
                if let marker { q += [("key-marker", marker.key), ("upload-id-marker", marker.upload)] }
                return S3Request("ListMultipartUploads", "GET", bucket: bucket, query: q)
            }
            guard root.name == "ListMultipartUploadsResult" else {
                throw S3Error(.malformedResponse, "ListMultipartUploads: root <\(root.name)>")
            }
            for u in root.children("Upload") {
                let key = try u.required("Key"), id = try u.required("UploadId")
                guard key.hasPrefix(prefix), !id.isEmpty, let initiated = UTCTime.parseISO8601(try u.required("Initiated")) else {
                    throw S3Error(.malformedResponse, "ListMultipartUploads: a malformed <Upload>")
                }
                out.append(S3MultipartUpload(key: key, uploadID: id, initiated: initiated))
            }
            guard out.count <= 1_000_000 else { throw S3Error(.malformedResponse, "ListMultipartUploads: too many uploads") }
            if root.child("IsTruncated")?.text == "true" {
                let next = (try root.required("NextKeyMarker"), try root.required("NextUploadIdMarker"))
                if let marker, marker == next { throw S3Error(.malformedResponse, "ListMultipartUploads: the listing does not advance") }
                marker = next
            } else {
                marker = nil
            }
        } while marker != nil
        return out
    }

    static func escapeXML(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
