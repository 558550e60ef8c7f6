import Foundation
import Ground

/// Where a command writes: machine output to stdout, diagnostics and progress to stderr.
/// Tests use a capturing console.
public final class Console: @unchecked Sendable {
    private let capture: Bool
    private let lock = NSLock()
    private var outBuffer: [UInt8] = []
    private var errBuffer: [UInt8] = []
    /// True when stderr is a terminal (progress bars are drawn only then).
    public let stderrIsTerminal: Bool

    /// The process's own stdout/stderr.
    public static func standard() -> Console {
        Console(capture: false, stderrIsTerminal: isatty(2) == 1)
    }

    /// A console that keeps what is written (for tests).
    public static func capturing() -> Console {
        Console(capture: true, stderrIsTerminal: false)
    }

    private init(capture: Bool, stderrIsTerminal: Bool) {
        self.capture = capture
        self.stderrIsTerminal = stderrIsTerminal
    }

    public var capturedOut: String { lock.withLock { String(decoding: outBuffer, as: UTF8.self) } }
    public var capturedErr: String { lock.withLock { String(decoding: errBuffer, as: UTF8.self) } }

    /// One line on stdout.
    public func out(_ line: String) { writeOut(Array((line + "\n").utf8)) }

    /// One line on stderr.
    public func err(_ line: String) { writeErr(Array((line + "\n").utf8)) }

    /// Raw bytes on stdout (blob contents).
    public func writeOut(_ bytes: UnsafeRawBufferPointer) throws {
        if capture { lock.withLock { outBuffer.append(contentsOf: bytes) }; return }
        try Self.writeAll(1, bytes)
    }

    public func writeOut(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { try? writeOut($0) }
    }

    /// Raw text on stderr (progress lines use `\r`).
    public func writeErr(_ bytes: [UInt8]) {
        if capture { lock.withLock { errBuffer.append(contentsOf: bytes) }; return }
        bytes.withUnsafeBytes { try? Self.writeAll(2, $0) }
    }

    /// A JSON Lines record on stdout.
    public func json(_ object: JSONValue) { out(object.encoded()) }

    static func writeAll(_ fd: Int32, _ buf: UnsafeRawBufferPointer) throws {
        try (fd == 2 ? FileDescriptor.standardError : FileDescriptor.standardOutput).write(all: buf)
    }
}
