import Foundation
import Ground

/// Where a command writes: machine output to stdout, diagnostics and progress to stderr.
/// Tests use a capturing console.
///
/// Text lines (`out`, `err`, `lines`) are escaped with `TerminalText.escape`, so no value can
/// forge a line or reach the terminal as a control sequence; JSON (`json`, `jsonLine`) is
/// escaped as JSON. While a progress bar is shown, each line first clears the bar, then the
/// bar is drawn again below it, so bar and lines never share a terminal row.
public final class Console: @unchecked Sendable {
    private let capture: Bool
    private let lock = NSLock()
    private var outBuffer: [UInt8] = []
    private var errBuffer: [UInt8] = []
    private var transcript: [UInt8] = []
    /// The bar's current text while it is on screen.
    private var barText: String?
    /// True when stderr is a terminal (progress bars are drawn only then).
    public let stderrIsTerminal: Bool
    /// The terminal's width in columns when stdout (else stderr) is a terminal.
    public let terminalColumns: Int?

    /// The process's own stdout/stderr.
    public static func standard() -> Console {
        Console(capture: false, stderrIsTerminal: isatty(2) == 1, columns: columns(of: isatty(1) == 1 ? 1 : 2))
    }

    /// A console that keeps what is written (for tests). `terminal: true` draws progress bars
    /// as on a terminal (see `capturedTranscript`).
    public static func capturing(terminal: Bool = false) -> Console {
        Console(capture: true, stderrIsTerminal: terminal, columns: nil)
    }

    private init(capture: Bool, stderrIsTerminal: Bool, columns: Int?) {
        self.capture = capture
        self.stderrIsTerminal = stderrIsTerminal
        self.terminalColumns = columns
    }

    public var capturedOut: String { lock.withLock { String(decoding: outBuffer, as: UTF8.self) } }
    public var capturedErr: String { lock.withLock { String(decoding: errBuffer, as: UTF8.self) } }
    /// Both streams interleaved in the order written, as a terminal showing both would get them.
    public var capturedTranscript: String { lock.withLock { String(decoding: transcript, as: UTF8.self) } }

    /// One text line on stdout (escaped).
    public func out(_ line: String) { emit(1, TerminalText.escape(line)) }

    /// One text line on stderr (escaped).
    public func err(_ line: String) { emit(2, TerminalText.escape(line)) }

    /// A block of text lines on stdout (or stderr), each escaped (a trailing newline ends the
    /// last one).
    public func lines(_ block: String, toStderr: Bool = false) {
        var parts = block.split(separator: "\n", omittingEmptySubsequences: false)
        if parts.last == "" { parts.removeLast() }
        for p in parts { toStderr ? err(String(p)) : out(String(p)) }
    }

    /// A JSON Lines record on stdout.
    public func json(_ object: JSONValue) { emit(1, object.encoded()) }

    /// An encoded JSON line on stdout (terminal-acting characters escaped as JSON).
    public func jsonLine(_ line: String) { emit(1, TerminalText.escapeJSON(line)) }

    /// Raw bytes on stdout (blob contents, help text).
    public func writeOut(_ bytes: UnsafeRawBufferPointer) throws {
        try lock.withLock {
            try clearBarLocked()
            try write(1, bytes)
            try redrawBarLocked()
        }
    }

    public func writeOut(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { try? writeOut($0) }
    }

    /// Raw text on stderr.
    public func writeErr(_ bytes: [UInt8]) {
        lock.withLock { bytes.withUnsafeBytes { try? write(2, $0) } }
    }

    private func emit(_ fd: Int32, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        lock.withLock {
            try? clearBarLocked()
            bytes.withUnsafeBytes { try? write(fd, $0) }
            try? redrawBarLocked()
        }
    }

    // MARK: Progress bar

    /// Draws (or redraws) the bar's line on stderr.
    func showBar(_ text: String) {
        lock.withLock {
            barText = text
            try? redrawBarLocked()
        }
    }

    /// Removes the bar from the screen.
    func hideBar() {
        lock.withLock {
            try? clearBarLocked()
            barText = nil
        }
    }

    private func clearBarLocked() throws {
        guard barText != nil else { return }
        try Array("\r\u{1b}[K".utf8).withUnsafeBytes { try write(2, $0) }
    }

    private func redrawBarLocked() throws {
        guard let barText else { return }
        try Array(("\r" + barText).utf8).withUnsafeBytes { try write(2, $0) }
    }

    /// Writes to the stream (or its capture); the caller holds the lock.
    private func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        if capture {
            if fd == 1 { outBuffer.append(contentsOf: bytes) } else { errBuffer.append(contentsOf: bytes) }
            transcript.append(contentsOf: bytes)
            return
        }
        try Self.writeAll(fd, bytes)
    }

    static func writeAll(_ fd: Int32, _ buf: UnsafeRawBufferPointer) throws {
        try (fd == 2 ? FileDescriptor.standardError : FileDescriptor.standardOutput).write(all: buf)
    }

    /// The width of the terminal on `fd` (TIOCGWINSZ), nil when it is not one.
    static func columns(of fd: Int32) -> Int? {
        guard isatty(fd) == 1 else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
