import CaptureFormat

/// Candidate global completion orders for two tracks' chunks, nearest to the timing first.
///
/// An order is fixed by how many video chunks precede each audio chunk (`videoBefore[j]`,
/// non-decreasing in j: a track's own chunks complete in index order). The base order sorts
/// chunks by completion time, ties video first. Nearby orders move audio chunks across video
/// chunks:
///
/// 1. **window**: audio chunk j may sit anywhere video chunks complete within `window` seconds
///    of it (the app's real-time interleaving can reorder chunks that close, not others);
/// 2. **shift**: additionally, each audio chunk moved up to `maxShift` positions from base.
///
/// Within a phase, orders that move fewer audio chunks come first. Enumeration stops after
/// `maxOrders` orders.
public struct CompletionOrderSearch: Sendable {
    public var window: Double
    public var maxShift: Int
    public var maxOrders: Int

    public init(window: Double = 0.030, maxShift: Int = 2, maxOrders: Int = 20_000) {
        self.window = window
        self.maxShift = maxShift
        self.maxOrders = maxOrders
    }

    /// One candidate: labels in leaf order, and how it differs from base.
    public struct Candidate: Sendable, Equatable {
        public var order: [StreamedChunks.Track]
        /// (audio chunk index, video chunks before it minus base), for moved audio chunks only.
        public var moves: [(audio: Int, offset: Int)]
        public var phase: String

        public static func == (a: Candidate, b: Candidate) -> Bool { a.order == b.order }

        /// `base`, or e.g. `window: audio[0] -1, audio[3] +2`.
        public var description: String {
            if moves.isEmpty { return "base" }
            return phase + ": " + moves.map { "audio[\($0.audio)] \($0.offset > 0 ? "+" : "")\($0.offset)" }.joined(separator: ", ")
        }
    }

    /// Base: per audio chunk, the video chunks that complete no later than it (ties video first).
    public static func baseVideoBefore(video: [Double], audio: [Double]) -> [Int] {
        audio.map { t in countWhere(video) { $0 <= t } }
    }

    /// Calls `visit` for each candidate in search order until it returns true or the budget is
    /// spent; returns how many candidates were visited.
    @discardableResult
    public func search(video: [Double], audio: [Double], visit: (Candidate) -> Bool) -> Int {
        let base = CompletionOrderSearch.baseVideoBefore(video: video, audio: audio)
        var seen = Set<[Int]>()
        var tried = 0
        var work = 0
        // Phase ranges: [lo, hi] of videoBefore per audio chunk.
        let windowRanges = audio.map { t in
            (CompletionOrderSearch.countWhere(video) { $0 + window <= t }, CompletionOrderSearch.countWhere(video) { $0 < t + window })
        }
        let shiftRanges = base.indices.map { j in
            (max(0, min(windowRanges[j].0, base[j] - maxShift)), min(video.count, max(windowRanges[j].1, base[j] + maxShift)))
        }
        for (phase, ranges) in [("window", windowRanges), ("shift", shiftRanges)] {
            let ranges = ranges.enumerated().map { j, r in (min(r.0, base[j]), max(r.1, base[j])) }
            let movable = ranges.indices.filter { ranges[$0].0 < ranges[$0].1 }
            for moved in 0...movable.count {
                var stop = false
                var current = base
                _ = enumerate(moved: moved, from: 0, movable: movable, ranges: ranges, base: base, current: &current) { vb in
                    work += 1
                    guard tried < maxOrders, work < maxOrders * 64 else { stop = true; return true }
                    guard isMonotonic(vb), seen.insert(vb).inserted else { return false }
                    tried += 1
                    let c = Candidate(order: CompletionOrderSearch.labels(videoBefore: vb, videoCount: video.count),
                                      moves: vb.indices.compactMap { vb[$0] != base[$0] ? ($0, vb[$0] - base[$0]) : nil },
                                      phase: phase)
                    if visit(c) { stop = true }
                    return stop
                }
                if stop { return tried }
            }
        }
        return tried
    }

    /// Chooses exactly `moved` of `movable[from...]` to differ from base, each over its range,
    /// keeping videoBefore non-decreasing. Returns true to stop.
    private func enumerate(moved: Int, from: Int, movable: [Int], ranges: [(Int, Int)], base: [Int],
                           current: inout [Int], emit: ([Int]) -> Bool) -> Bool {
        if moved == 0 {
            // Non-monotonic combinations are skipped, not counted; `emit` still bounds the walk
            // because it is called with the rejected ones too (and counts them as work).
            return emit(current)
        }
        guard movable.count - from >= moved else { return false }
        for k in from..<movable.count {
            guard movable.count - k >= moved else { break }
            let j = movable[k]
            for v in ranges[j].0...ranges[j].1 where v != base[j] {
                current[j] = v
                if enumerate(moved: moved - 1, from: k + 1, movable: movable, ranges: ranges, base: base,
                             current: &current, emit: emit) {
                    current[j] = base[j]
                    return true
                }
            }
            current[j] = base[j]
        }
        return false
    }

    private func isMonotonic(_ v: [Int]) -> Bool {
        zip(v, v.dropFirst()).allSatisfy { $0 <= $1 }
    }

    /// Leaf labels for an order given as videoBefore per audio chunk.
    public static func labels(videoBefore: [Int], videoCount: Int) -> [StreamedChunks.Track] {
        var out: [StreamedChunks.Track] = []
        out.reserveCapacity(videoCount + videoBefore.count)
        var v = 0
        for n in videoBefore {
            while v < n { out.append(.video); v += 1 }
            out.append(.audio)
        }
        while v < videoCount { out.append(.video); v += 1 }
        return out
    }

    static func countWhere(_ sorted: [Double], _ pred: (Double) -> Bool) -> Int {
        var n = 0
        for x in sorted where pred(x) { n += 1 }
        return n
    }
}
