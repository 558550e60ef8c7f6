import Foundation

/// A one-line progress bar on stderr (items, bytes, MB/s, ETA), drawn only when stderr is a
/// terminal and at most ten times a second. The console clears it before each line it prints
/// and draws it again after, so lines never run into the bar.
public final class ProgressBar {
    private let console: Console
    private let enabled: Bool
    private var totalItems: Int
    private var totalBytes: UInt64
    private let start = Date()
    private var lastDraw = Date.distantPast
    private(set) var items = 0
    private(set) var bytes: UInt64 = 0
    private var finished = false

    public init(console: Console, items: Int, bytes: UInt64, enabled: Bool? = nil) {
        self.console = console
        self.totalItems = items
        self.totalBytes = bytes
        self.enabled = enabled ?? console.stderrIsTerminal
    }

    /// Whether the bar is drawn (stderr is a terminal): callers skip estimating totals otherwise.
    public var isShown: Bool { enabled }

    public func advance(items: Int = 0, bytes: UInt64 = 0) {
        self.items += items
        self.bytes += bytes
        draw()
    }

    /// Sets the counts done so far (for callbacks that report running totals).
    public func update(items: Int, bytes: UInt64) {
        self.items = items
        self.bytes = bytes
        draw()
    }

    /// Sets the totals (when they are known only once the work is planned).
    public func setTotal(items: Int, bytes: UInt64) {
        totalItems = items
        totalBytes = bytes
    }

    private func draw() {
        guard enabled, !finished, Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = Date()
        console.showBar(line(elapsed: Date().timeIntervalSince(start)))
    }

    /// Clears the bar (and stops drawing it).
    public func finish() {
        guard enabled, !finished else { return }
        finished = true
        console.hideBar()
    }

    /// The text of the bar (public for tests).
    public func line(elapsed: TimeInterval) -> String {
        let fraction = totalBytes > 0 ? min(1, Double(bytes) / Double(totalBytes))
            : (totalItems > 0 ? Double(items) / Double(totalItems) : 0)
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let mb = Double(bytes) / 1e6
        let rate = elapsed > 0 ? mb / elapsed : 0
        var eta = "--:--"
        if fraction > 0, fraction < 1, elapsed > 0 {
            let left = Int(elapsed / fraction - elapsed)
            eta = String(format: "%d:%02d", left / 60, left % 60)
        } else if fraction >= 1 {
            eta = "0:00"
        }
        return String(format: "[%@] %d/%d items %.1f/%.1f MB %.1f MB/s ETA %@",
                      bar, items, totalItems, mb, Double(totalBytes) / 1e6, rate, eta)
    }
}
