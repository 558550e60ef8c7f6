import Foundation
import Ground
import Testing
@testable import S3

extension RGWTests {
    /// Wrong or missing credentials are a typed error, and no credential ever reaches a message.
    @Suite struct Credentials {
        @Test func wrongSecretIsRejectedOnEveryCall() throws {
            let server = try RGWServer.get()
            var env = server.environment
            let secret = "wrong-secret-\(UUID().uuidString)"
            env["AWS_SECRET_ACCESS_KEY"] = secret
            let client = try S3Client.fromEnvironment(env, retry: .none)
            let store = try S3BlobStore(client: client, bucket: server.bucket, prefix: "tests/credentials", options: RGWServer.multipart)
            let bytes = Array("never stored".utf8)
            let id = ContentID(of: bytes)
            let calls: [(String, () throws -> Void)] = [
                ("put", { _ = try store.put(id, bytes: bytes) }),
                ("multipart put", { _ = try store.put(ContentID(of: [1]), bytes: [UInt8](repeating: 1, count: 9 << 20)) }),
                ("get", { try store.get(id) { _ in } }),
                ("ranged get", { try store.get(id, range: 0..<3) { _ in } }),
                ("head", { _ = try store.stat(id) }),
                ("list", { _ = try store.list { _, _ in } }),
                ("delete", { try store.delete(id) }),
                ("uploads", { _ = try store.pendingUploads() }),
            ]
            for (name, call) in calls {
                do {
                    try call()
                    Issue.record("\(name) succeeded with a wrong secret")
                } catch let e as S3Error {
                    #expect(e.code == .credentialsRejected, "\(name): \(e)")
                    #expect(e.serverCode == "SignatureDoesNotMatch", "\(name): \(e)")
                    for text in [e.description, e.message, String(reflecting: e), "\(e)"] {
                        #expect(!text.contains(secret), "\(name) leaks the secret")
                        #expect(!text.contains(server.environment["AWS_ACCESS_KEY_ID"]!), "\(name) leaks the key ID")
                    }
                }
            }
        }

        @Test func unknownAccessKeyIsRejected() throws {
            let server = try RGWServer.get()
            var env = server.environment
            env["AWS_ACCESS_KEY_ID"] = "NOSUCHKEY\(UInt32.random(in: 0...UInt32.max))"
            let store = try S3BlobStore(client: try S3Client.fromEnvironment(env, retry: .none), bucket: server.bucket)
            do {
                _ = try store.put(ContentID(of: [2]), bytes: [2])
                Issue.record("an unknown access key was accepted")
            } catch let e as S3Error {
                #expect(e.code == .credentialsRejected)
                #expect(e.serverCode == "InvalidAccessKeyId")
                #expect(!e.description.contains(env["AWS_ACCESS_KEY_ID"]!))
            }
        }

        @Test func missingCredentialsAndBadConfiguration() {
            #expect(throws: S3Error(.credentialsMissing, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set")) {
                try S3Client.fromEnvironment(["AWS_ACCESS_KEY_ID": "x"])
            }
            for url in ["ftp://h", "http://user:pw@h", "http://h/?q=1", "not a url", "http://h:99999"] {
                #expect((try? S3Endpoint(url: url, region: "us-east-1")) == nil, "\(url)")
            }
            #expect(throws: S3Error.self) { try S3Endpoint.checkBucket("Bad_Bucket") }
            let e = try? S3Endpoint(url: "http://127.0.0.1:80/", region: "eu-west-1")
            #expect(e?.host == "127.0.0.1" && e?.pathStyle == true && e?.basePath == "")
        }

        @Test func credentialsAreRedactedEverywhere() {
            let c = S3Credentials(accessKeyID: "AKIDSHOWNNOWHERE", secretAccessKey: "s3cr3t-value", sessionToken: "tok-en-value")
            var dumped = ""
            dump(c, to: &dumped)
            for text in [c.description, String(reflecting: c), "\(c)", dumped, c.redact("x AKIDSHOWNNOWHERE s3cr3t-value tok-en-value y")] {
                for secret in ["AKIDSHOWNNOWHERE", "s3cr3t-value", "tok-en-value"] {
                    #expect(!text.contains(secret), "\(text)")
                }
            }
            let client = S3Client(endpoint: try! S3Endpoint(url: "http://127.0.0.1:1", region: "us-east-1"), credentials: c)
            var clientDump = ""
            dump(client, to: &clientDump)
            #expect(!client.description.contains("s3cr3t") && !clientDump.contains("s3cr3t"))
        }

        @Test func sessionTokenIsSignedAndSent() throws {
            // RGW without STS refuses an unknown token; the point is that it is sent and signed.
            let server = try RGWServer.get()
            var env = server.environment
            env["AWS_SESSION_TOKEN"] = "token-\(UUID().uuidString)"
            let client = try S3Client.fromEnvironment(env, retry: .none)
            let request = client.signed(S3Request("HeadObject", "HEAD", bucket: server.bucket, key: "k"))
            #expect(request.header("x-amz-security-token") == env["AWS_SESSION_TOKEN"])
            #expect(request.header("Authorization")!.contains("x-amz-security-token"))
        }
    }
}
