import Foundation
import HTTP

/// A client of one S3 endpoint with one set of credentials: signs each request (SigV4), sends it
/// over libcurl, retries what may succeed when sent again (`S3RetryPolicy`), and turns refusals
/// into `S3Error`s. Thread-safe; every call blocks its thread (run it off the cooperative pool).
public final class S3Client: Sendable {
    public let endpoint: S3Endpoint
    public let retry: S3RetryPolicy
    /// Seconds to connect, and without progress before a transfer is abandoned.
    public let connectTimeout: Double
    public let stallTimeout: Int
    let credentials: S3Credentials
    let http: HTTPClient
    /// Bytes of an XML answer (list, error, multipart) we read at most.
    static let maxDocumentBytes = 8 << 20

    public init(endpoint: S3Endpoint, credentials: S3Credentials, retry: S3RetryPolicy = .default,
                connectTimeout: Double = 10, stallTimeout: Int = 60) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.retry = retry
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.http = HTTPClient()
    }

    /// Endpoint and credentials from the environment (`AWS_ENDPOINT_URL_S3`, `AWS_REGION`,
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                       retry: S3RetryPolicy = .default) throws(S3Error) -> S3Client {
        S3Client(endpoint: try S3Endpoint.fromEnvironment(environment),
                 credentials: try S3Credentials.fromEnvironment(environment), retry: retry)
    }

    public var description: String { "S3Client(\(endpoint.scheme)://\(endpoint.host), region \(endpoint.region), <credentials redacted>)" }

    /// Sends `make(attempt)` until an answer that is not retryable, or attempts run out.
    /// A 2xx body streams to `sink`. With `resumable` false a transfer that already handed bytes
    /// to the sink is not retried; with true the caller's `make` resumes where the sink stopped.
    /// `onHead` sees each final answer's head before its body (a 2xx one may be refused there).
    /// Returns the final answer, whatever its status (callers decide what a 404 or 412 means).
    func execute(resumable: Bool = false, onHead: (HTTPResponse) throws -> Void = { _ in },
                 sink: (UnsafeRawBufferPointer) throws -> Void = { _ in },
                 _ make: (Int) throws -> S3Request) throws -> HTTPResponse {
        var attempt = 1
        var delivered = 0
        while true {
            let request = try make(attempt)
            let deliveredBefore = delivered
            var lastFailure: S3Error
            if Self.tracing { _ = Self.traceEpoch }
            let started = Date()
            do {
                let response = try http.send(signed(request), body: request.body, onHead: onHead) { bytes in
                    delivered += bytes.count
                    try sink(bytes)
                }
                trace(request, attempt: attempt, started: started, outcome: "HTTP \(response.status)")
                let serverCode = response.isSuccess ? "" : S3Error.serverCode(in: response.errorBody)
                guard !response.isSuccess, S3RetryPolicy.isRetryable(status: response.status, serverCode: serverCode) else {
                    return response
                }
                lastFailure = S3Error.from(response, operation: request.operation, credentials: credentials)
            } catch let e as HTTPError {
                trace(request, attempt: attempt, started: started, outcome: e.code)
                guard e.isTransient else {
                    throw S3Error(.unavailable, "\(request.operation): \(credentials.redact(e.description))", transport: e)
                }
                lastFailure = S3Error(.unavailable, "\(request.operation): \(credentials.redact(e.description))", transport: e)
            }
            guard attempt < retry.maxAttempts, resumable || delivered == deliveredBefore else {
                throw S3Error(lastFailure.code, "\(lastFailure.message) (after \(attempt) attempt\(attempt == 1 ? "" : "s"))",
                              status: lastFailure.status, serverCode: lastFailure.serverCode, transport: lastFailure.transport)
            }
            Thread.sleep(forTimeInterval: retry.delay(after: attempt))
            attempt += 1
        }
    }

    /// `EXHIBIT_S3_TRACE=1`: one stderr line per attempt (operation, key, attempt, outcome,
    /// start in milliseconds since the first request, duration, body bytes). Never headers,
    /// so never a credential.
    private static let tracing = ProcessInfo.processInfo.environment["EXHIBIT_S3_TRACE"] == "1"
    private static let traceEpoch = Date()

    private func trace(_ r: S3Request, attempt: Int, started: Date, outcome: String) {
        guard Self.tracing else { return }
        let ms = Int(Date().timeIntervalSince(started) * 1000)
        let at = Int(started.timeIntervalSince(Self.traceEpoch) * 1000)
        let line = "s3: \(r.operation) \(r.bucket)/\(r.key ?? "") attempt \(attempt): \(outcome) at +\(at) ms in \(ms) ms, body \(r.body.length ?? 0) B\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Sends one request and reads its XML answer (bounded); non-2xx answers throw.
    func document(_ make: (Int) throws -> S3Request) throws -> XMLElement {
        var body: [UInt8] = []
        let response = try execute(sink: { bytes in
            guard body.count + bytes.count <= Self.maxDocumentBytes else {
                throw S3Error(.malformedResponse, "XML answer longer than \(Self.maxDocumentBytes) bytes")
            }
            body += bytes
        }, { attempt in
            body.removeAll(keepingCapacity: true)
            return try make(attempt)
        })
        let operation = try make(0).operation
        guard response.isSuccess else { throw S3Error.from(response, operation: operation, credentials: credentials) }
        let root = try XMLDocumentParser.parse(body)
        // Some calls (CompleteMultipartUpload) answer 200 with an <Error> document.
        if root.name == "Error" {
            let code = root.child("Code")?.text ?? ""
            throw S3Error.classify(status: response.status, serverCode: code,
                                   message: "\(operation): \(credentials.redact(root.child("Message")?.text ?? ""))")
        }
        return root
    }

    /// The request as libcurl sends it: URL, `Host`, signature.
    func signed(_ r: S3Request, date: Date = Date()) -> HTTPRequest {
        let (host, path) = endpoint.address(bucket: r.bucket, key: r.key)
        var headers: [(name: String, value: String)] = [("Host", host)] + r.headers
        SigV4(credentials: credentials, region: endpoint.region)
            .sign(method: r.method, path: path, query: r.query, headers: &headers, payloadHash: r.payloadHash, date: date)
        let query = SigV4.canonicalQuery(r.query)
        let url = "\(endpoint.scheme)://\(host)\(path.isEmpty ? "/" : path)\(query.isEmpty ? "" : "?" + query)"
        return HTTPRequest(method: r.method, url: url, headers: headers, connectTimeout: connectTimeout,
                           stallTimeout: stallTimeout, expectContinue: r.expectContinue)
    }
}
