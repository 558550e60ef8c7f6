import Crypto
import Foundation
import Testing
@testable import S3

/// SigV4 against the examples of AWS's S3 documentation ("Signature Calculations for the
/// Authorization Header"), whose signatures AWS published; the live server checks the rest.
@Suite struct SigV4Tests {
    static let credentials = S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                                           secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    static let date = Date(timeIntervalSince1970: 1_369_353_600)   // 2013-05-24T00:00:00Z

    func signature(method: String, path: String, query: [(String, String)] = [], headers: [(name: String, value: String)],
                   payload: String) -> String {
        var h = headers
        SigV4(credentials: Self.credentials, region: "us-east-1")
            .sign(method: method, path: path, query: query, headers: &h, payloadHash: payload, date: Self.date)
        return h.first { $0.name == "Authorization" }!.value
    }

    @Test func getObjectExample() {
        let auth = signature(method: "GET", path: "/test.txt",
                             headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")],
                             payload: SigV4.emptyPayloadHash)
        #expect(auth == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func putObjectExampleEncodesTheKey() {
        let body = Array("Welcome to Amazon S3.".utf8)
        let sha = Hex.encode(MessageDigest.sha256(body))
        #expect(sha == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let auth = signature(method: "PUT", path: "/" + SigV4.encode("test$file.text", keepSlash: true),
                             headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                                       ("x-amz-storage-class", "REDUCED_REDUNDANCY")], payload: sha)
        #expect(auth.hasSuffix("SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
                               + "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"))
    }

    @Test func listObjectsExampleSortsTheQuery() {
        let auth = signature(method: "GET", path: "/", query: [("prefix", "J"), ("max-keys", "2")],
                             headers: [("Host", "examplebucket.s3.amazonaws.com")], payload: SigV4.emptyPayloadHash)
        #expect(auth.hasSuffix("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"))
    }

    @Test func encodingAndCanonicalQuery() {
        #expect(SigV4.encode("a b/c~d_e-f.g+h=i&é", keepSlash: true) == "a%20b/c~d_e-f.g%2Bh%3Di%26%C3%A9")
        #expect(SigV4.encode("a/b", keepSlash: false) == "a%2Fb")
        #expect(SigV4.canonicalQuery([("uploads", ""), ("prefix", "a/b"), ("list-type", "2")])
                == "list-type=2&prefix=a%2Fb&uploads=")
        #expect(SigV4.trim("  a   b  ") == "a b")
    }

    @Test func iso8601BothWays() {
        #expect(UTCTime.iso8601(Self.date) == "2013-05-24T00:00:00Z")
        #expect(UTCTime.parseISO8601("2013-05-24T00:00:00Z") == Self.date)
        #expect(UTCTime.parseISO8601("2013-05-24T00:00:00.500Z") == Self.date.addingTimeInterval(0.5))
        for bad in ["2013-05-24T00:00:00", "2013-05-24 00:00:00Z", "2013-13-24T00:00:00Z", "x013-05-24T00:00:00Z", "2013-05-24T00:00:00.Z"] {
            #expect(UTCTime.parseISO8601(bad) == nil, "\(bad)")
        }
    }
}

