import COpenSSL

/// An error raised by libcrypto, with the OpenSSL error queue drained into text.
public struct OpenSSLError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Which operation failed (`"EVP_DigestInit_ex"`, …).
    public let operation: String
    /// The drained OpenSSL error queue, oldest first.
    public let queue: [String]

    public init(_ operation: String) {
        self.operation = operation
        self.queue = OpenSSLError.drainQueue()
    }

    public var description: String {
        queue.isEmpty ? "\(operation) failed" : "\(operation) failed: \(queue.joined(separator: "; "))"
    }

    /// Reads and clears the thread's OpenSSL error queue.
    static func drainQueue() -> [String] {
        var out: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buf = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buf, buf.count)
            out.append(String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return out
    }
}
