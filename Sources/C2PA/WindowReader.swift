/// Byte-at-a-time reads over a source through a 64 KiB window: the streaming scanners of the
/// markup formats (SVG, PDF) look at one byte at a time without holding the file.
struct WindowReader<Source: ByteSource> {
    let source: Source
    private var start: Int64 = 0
    private var window: [UInt8] = []

    init(_ source: Source) { self.source = source }

    var count: Int64 { source.count }

    /// The byte at `i`, nil past the end.
    mutating func byte(_ i: Int64) throws(ContainerError) -> UInt8? {
        guard i >= 0, i < source.count else { return nil }
        if i < start || i >= start + Int64(window.count) {
            start = i
            window = try source.containerPrefix(at: i, count: 1 << 16)
        }
        return window[Int(i - start)]
    }

    /// Whether the bytes at `i` are `s`.
    mutating func matches(_ s: [UInt8], at i: Int64) throws(ContainerError) -> Bool {
        for (k, c) in s.enumerated() { guard try byte(i + Int64(k)) == c else { return false } }
        return true
    }
}
