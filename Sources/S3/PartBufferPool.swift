import Ground

/// Part buffers kept between multipart puts of one store, so each upload does not fault in
/// (and the kernel zero) fresh pages for every part buffer: at most `limit` idle buffers of
/// one size are kept; more are freed. Memory held idle: `limit × size`, the same as one
/// upload in flight.
final class PartBufferPool: Sendable {
    private struct Idle: @unchecked Sendable {
        var buffers: [UnsafeMutableRawBufferPointer] = []
    }
    private let idle = Locked(Idle())
    let limit: Int

    init(limit: Int) { self.limit = limit }

    deinit { idle.withLock { for b in $0.buffers { b.deallocate() } } }

    /// A buffer of exactly `size` bytes: an idle one, or a new one.
    func take(size: Int) -> UnsafeMutableRawBufferPointer {
        let reused = idle.withLock { state -> UnsafeMutableRawBufferPointer? in
            guard let i = state.buffers.firstIndex(where: { $0.count == size }) else { return nil }
            return state.buffers.remove(at: i)
        }
        return reused ?? .allocate(byteCount: size, alignment: 16)
    }

    /// Gives `buffer` back: kept when fewer than `limit` are idle, freed otherwise.
    func give(_ buffer: UnsafeMutableRawBufferPointer) {
        let kept = idle.withLock { state -> Bool in
            guard state.buffers.count < limit else { return false }
            state.buffers.append(buffer)
            return true
        }
        if !kept { buffer.deallocate() }
    }
}
