import Foundation
import Ground

/// Counts of every outcome of one ingest run (the closing summary).
public struct IngestSummary: Sendable, Equatable, Codable {
    public var captures = 0
    /// `new`, `variant`, `present`, `failed`, `path-added` → count.
    public var outcomes: [String: Int] = [:]
    /// `intact`, `tampered`, `unsigned`, `malformed` → count.
    public var integrity: [String: Int] = [:]
    /// Sidecar state → count over all sinks of all captures.
    public var sidecars: [String: Int] = [:]
    /// Sink → state → count.
    public var sidecarsBySink: [String: [String: Int]] = [:]
    /// Captures whose verification reported an item error (unreadable, symlink…).
    public var itemErrors = 0
    /// Paths given that could not be walked.
    public var pathErrors: [String] = []
    /// Entries under the paths given that the walk could not read or did not enter
    /// (`walk.symlink`, `walk.unreadable`, `walk.tooDeep`, `walk.tooMany`), per path.
    public var walk: [WalkProblem] = []
    public var newBlobs = 0
    public var bytes: UInt64 = 0
    public var seconds = 0.0
    /// Captures needing attention (not intact, sidecar mismatch/missing, failed).
    public var attention = 0

    public init() {}

    /// Counts one item (ingest's writer per commit; the queue worker over all its jobs).
    public mutating func count(_ item: IngestItem) {
        captures += 1
        outcomes[item.outcome.rawValue, default: 0] += 1
        integrity[item.report.integrity.rawValue, default: 0] += 1
        for s in item.report.sidecars {
            sidecars[s.state.rawValue, default: 0] += 1
            sidecarsBySink[s.sink.rawValue, default: [:]][s.state.rawValue, default: 0] += 1
        }
        if item.report.error != nil { itemErrors += 1 }
        newBlobs += item.newBlobs
        bytes += item.bytes
        if item.needsAttention { attention += 1 }
    }

    /// Exit status 1 when any capture needs attention, a path could not be walked, or the
    /// walk left an entry unread.
    public var isClean: Bool { attention == 0 && pathErrors.isEmpty && walk.isEmpty }
}
