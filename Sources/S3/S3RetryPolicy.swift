import Foundation
import HTTP

/// Bounded retries with exponential backoff and full jitter: attempt n (from 1) waits a random
/// time in [0, min(maxDelay, baseDelay · 2^(n-1))] before attempt n+1. Retried: connection
/// failures, resets and timeouts; HTTP 500, 502, 503, 504 and 429; and the 4xx answers S3 says
/// to retry (`RequestTimeout`, `SlowDown`, `ConditionalRequestConflict`, `OperationAborted`).
/// Nothing else (a 403 or 404 is final).
public struct S3RetryPolicy: Sendable {
    /// Attempts in all (1 means no retry).
    public var maxAttempts: Int
    public var baseDelay: Double
    public var maxDelay: Double

    public init(maxAttempts: Int = 6, baseDelay: Double = 0.2, maxDelay: Double = 5) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    public static let `default` = S3RetryPolicy()
    public static let none = S3RetryPolicy(maxAttempts: 1)

    /// The wait after failed attempt `attempt` (from 1).
    func delay(after attempt: Int) -> Double {
        let cap = min(maxDelay, baseDelay * pow(2, Double(min(attempt - 1, 30))))
        return Double.random(in: 0...max(0, cap))
    }

    static let retryableStatuses: Set<Int> = [429, 500, 502, 503, 504]
    static let retryableServerCodes: Set<String> = ["RequestTimeout", "SlowDown", "ConditionalRequestConflict",
                                                     "OperationAborted", "InternalError", "ServiceUnavailable",
                                                     "Throttling", "ThrottlingException", "RequestThrottled"]

    static func isRetryable(status: Int, serverCode: String) -> Bool {
        retryableStatuses.contains(status) || retryableServerCodes.contains(serverCode)
    }
}
