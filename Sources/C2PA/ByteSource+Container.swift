/// Reads for the container walkers: exact, bounds-checked, failures as `ContainerError`.
extension ByteSource {
    /// Exactly `count` bytes at `offset`; a read past the end is `truncated(offset:)`.
    func containerBytes(at offset: Int64, count: Int) throws(ContainerError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= self.count, Int64(count) <= self.count - offset else {
            throw .truncated(offset: offset)
        }
        do { return try readExactly(at: offset, count: count) } catch {
            if case .outOfRange = error { throw .truncated(offset: offset) }
            throw .io(error)
        }
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the source).
    func containerPrefix(at offset: Int64, count: Int) throws(ContainerError) -> [UInt8] {
        guard offset >= 0, offset <= self.count else { return [] }
        let n = Int(min(Int64(count), self.count - offset))
        return try containerBytes(at: offset, count: n)
    }
}

/// Little-endian integers (RIFF, TIFF `II`, GIF) over byte arrays; nil when short.
enum LittleEndian {
    static func u16(_ b: [UInt8], _ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= b.count else { return nil }
        return UInt16(b[at]) | UInt16(b[at + 1]) << 8
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) }
    }

    static func u64(_ b: [UInt8], _ at: Int) -> UInt64? {
        guard at >= 0, at + 8 <= b.count else { return nil }
        return (0..<8).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * $1) }
    }

    static func bytes(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func bytes(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
}

/// Limits every container reader shares.
public enum ContainerLimits {
    /// Largest manifest store read from any carrier (a store with ingredient thumbnails runs to
    /// megabytes; beyond this is `container.manifestTooLarge`).
    public static let maximumStoreSize = 256 << 20
    /// Largest XMP packet read (as `XMPProvenance.maximumPacket`).
    public static let maximumXMP = XMPProvenance.maximumPacket
}
