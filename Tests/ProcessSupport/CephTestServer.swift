import Foundation

/// The Ceph RADOS Gateway the S3 server tests (S3Tests: RGWTests) run against. When the
/// environment names no server (`AWS_ENDPOINT_URL_S3` and `EXHIBIT_S3_BUCKET`),
/// `scripts/services/ceph-up.sh` is run with `$EXHIBIT_CEPH_DIR` (default `/tmp/exhibit-ceph`;
/// idempotent: a running cluster is reused) and its `export` lines are read.
public enum CephTestServer {
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The environment naming the server (ours, plus ceph-up.sh's exports when it had to run)
    /// and the cluster's directory.
    public static func environment() -> Swift.Result<(environment: [String: String], cephDir: String), CephStartFailure> {
        var env = ProcessInfo.processInfo.environment
        let cephDir = env["EXHIBIT_CEPH_DIR"] ?? "/tmp/exhibit-ceph"
        if env["AWS_ENDPOINT_URL_S3"] == nil || env["EXHIBIT_S3_BUCKET"] == nil {
            let run = Run.capture(["bash", repository.appendingPathComponent("scripts/services/ceph-up.sh").path, cephDir])
            guard run.status == 0 else { return .failure(CephStartFailure(message: "ceph-up.sh exited \(run.status): \(run.stderr)")) }
            for line in run.stdout.split(separator: "\n") where line.hasPrefix("export ") {
                let assignment = line.dropFirst(7)
                guard let eq = assignment.firstIndex(of: "=") else { continue }
                env[String(assignment[..<eq])] = String(assignment[assignment.index(after: eq)...])
            }
        }
        guard env["EXHIBIT_S3_BUCKET"] != nil else { return .failure(CephStartFailure(message: "no EXHIBIT_S3_BUCKET")) }
        return .success((env, cephDir))
    }

    /// SIGKILLs the cluster's radosgw by its pid file and waits for it to be gone; true when
    /// it was running.
    @discardableResult
    public static func killRadosgw(cephDir: String) -> Bool {
        guard let text = try? String(contentsOfFile: cephDir + "/run/client.rgw.a.pid", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), kill(pid, SIGKILL) == 0 else { return false }
        while kill(pid, 0) == 0 { usleep(10_000) }
        return true
    }

    /// Starts the cluster's stopped daemons again (ceph-up.sh's idempotent restart).
    public static func restart(cephDir: String) -> Run.Result {
        Run.capture(["bash", repository.appendingPathComponent("scripts/services/ceph-up.sh").path, cephDir])
    }
}

public struct CephStartFailure: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "the Ceph RGW test server did not start: \(message)" }
}
