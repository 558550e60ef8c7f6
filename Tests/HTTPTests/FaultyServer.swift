import Foundation

/// A one-connection TCP server on 127.0.0.1 that answers the first request in a chosen broken
/// way: the faults a real S3 server cannot be made to show on demand (a stall, a reset, a
/// malformed or oversized head). It reads the request head, then acts.
final class FaultyServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Send these bytes, then close.
        case reply([UInt8])
        /// Send nothing and keep the connection open for this many seconds.
        case stall(seconds: Double)
        /// Close with an RST (SO_LINGER 0) without answering.
        case reset
    }

    let port: UInt16
    private let thread: Thread
    private let accepted: Flag

    /// Set by the server thread once `accept` has returned.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.lock(); value = true; lock.unlock() }
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    }

    init(_ behaviour: Behaviour) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard fd >= 0, bound == 0, listen(fd, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = UInt16(bigEndian: addr.sin_port)
        let accepted = Flag()
        self.accepted = accepted
        // The thread owns the listener and closes it once it has its one connection. (Were the
        // listener closed by `deinit` instead, a thread that has not reached `accept` yet would
        // accept on whatever socket reused that descriptor number: another test's server.)
        thread = Thread {
            let conn = accept(fd, nil, nil)
            accepted.set()
            close(fd)
            guard conn >= 0 else { return }
            // Read the request head (and whatever body follows in the first reads).
            var head: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 65_536)
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]) && head.count < 1 << 20 {
                let n = recv(conn, &buf, 1, 0)
                if n <= 0 { break }
                head.append(buf[0])
            }
            switch behaviour {
            case .reply(let bytes):
                _ = bytes.withUnsafeBytes { send(conn, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                // Half-close and wait for the client to close: an orderly FIN, never an RST.
                shutdown(conn, Int32(SHUT_WR))
                var timeout = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                while recv(conn, &buf, buf.count, 0) > 0 {}
                close(conn)
            case .stall(let seconds):
                Thread.sleep(forTimeInterval: seconds)
                close(conn)
            case .reset:
                var linger = Foundation.linger(l_onoff: 1, l_linger: 0)
                setsockopt(conn, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Foundation.linger>.size))
                close(conn)
            }
        }
        thread.start()
    }

    /// A server no client reached: connect once so its thread's `accept` returns and the
    /// thread closes the listener.
    deinit {
        guard !accepted.isSet else { return }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = port.bigEndian
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(fd)
    }

    var url: String { "http://127.0.0.1:\(port)/bucket/key" }
}
