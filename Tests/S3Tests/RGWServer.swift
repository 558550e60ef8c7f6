import BlobStoreContract
import Foundation
import Ground
import ProcessSupport
@testable import S3

/// The real Ceph RADOS Gateway the server tests run against. When the environment does not
/// name one (`AWS_ENDPOINT_URL_S3` and `EXHIBIT_S3_BUCKET`), `scripts/services/ceph-up.sh` is run
/// once per process with its fixed default directory (idempotent: a running cluster is reused)
/// and its `export` lines are read.
struct RGWServer: Sendable {
    let environment: [String: String]
    let bucket: String
    let lockBucket: String
    let cephDir: String

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Started (or found) once; a failure to start is reported by every test that needs it.
    static let shared: Result<RGWServer, RGWStartFailure> = start()

    static func get() throws -> RGWServer { try shared.get() }

    private static func start() -> Result<RGWServer, RGWStartFailure> {
        switch CephTestServer.environment() {
        case .failure(let f): return .failure(RGWStartFailure(message: f.message))
        case .success(let (env, cephDir)):
            guard let bucket = env["EXHIBIT_S3_BUCKET"] else { return .failure(RGWStartFailure(message: "no EXHIBIT_S3_BUCKET")) }
            return .success(RGWServer(environment: env, bucket: bucket, lockBucket: env["EXHIBIT_S3_LOCK_BUCKET"] ?? "exhibit-test-lock",
                                      cephDir: cephDir))
        }
    }

    func client(retry: S3RetryPolicy = .default) throws -> S3Client {
        try S3Client.fromEnvironment(environment, retry: retry)
    }

    /// Options that put every blob over 8 MiB in a multipart upload (the store's threshold before
    /// the streamed single PUT), so tests of parts keep their 9–30 MiB blobs.
    static let multipart = S3BlobStore.Options(multipartThreshold: 8 << 20)

    /// A store under a fresh prefix, so tests never see each other's blobs.
    func store(_ options: S3BlobStore.Options = .init(), bucket: String? = nil, retry: S3RetryPolicy = .default) throws -> S3BlobStore {
        try S3BlobStore(client: client(retry: retry), bucket: bucket ?? self.bucket,
                        prefix: "tests/\(UUID().uuidString.lowercased())", options: options)
    }

    /// Runs the boto3 peer (`tests/peers/s3_peer.py`) with the server's environment.
    func peer(_ args: [String]) -> Run.Result {
        let python = Self.repository.appendingPathComponent(".venv/bin/python").path
        return Run.capture([python, Self.repository.appendingPathComponent("tests/peers/s3_peer.py").path] + args, environment: environment)
    }
}

struct RGWStartFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { "the Ceph RGW test server did not start: \(message)" }
}

/// A fresh temporary directory, removed when the value is released.
final class TempDir {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "s3-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}

/// The ID of a file, hashed here in 1 MiB pieces (tests compare it with openssl's).
func fileID(_ path: String) throws -> ContentID {
    ContentID(hex: opensslSHA256(path))!
}

/// Opens `path` as a sequential source for `put`.
func fileSource(_ path: String) throws -> (FileHandle, ByteReader) {
    let h = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    return (h, ByteReader(try FileByteSource(path: path)))
}
