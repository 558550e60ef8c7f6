import Foundation

/// What a walk of the custody chain found.
public struct CustodyVerification: Sendable, Equatable {
    /// Events read.
    public var events = 0
    /// The last seq of the chain (0 when empty).
    public var headSeq: UInt64 = 0
    public var problems: [Problem] = []
    public var isIntact: Bool { problems.isEmpty }

    /// One break of the chain, named by the seq of the event concerned.
    public struct Problem: Sendable, Equatable, Hashable {
        public enum Kind: String, Sendable { case changed, removed, inserted }
        public var kind: Kind
        public var seq: UInt64
        public var detail: String
        public init(kind: Kind, seq: UInt64, detail: String) {
            self.kind = kind
            self.seq = seq
            self.detail = detail
        }
    }
}

extension CustodyVerification {
    /// One stored event as a walk sees it: the key (seq) it is stored under, the event when it
    /// parses, and whether it hashes to its own stored hash.
    public struct Entry: Sendable {
        public let key: UInt64
        public let event: CustodyEvent?
        public let selfConsistent: Bool

        public init(key: UInt64, event: CustodyEvent?, selfConsistent: Bool) {
            (self.key, self.event, self.selfConsistent) = (key, event, selfConsistent)
        }
    }

    /// Names what is changed, removed or inserted in `entries` (in key order) against `head`,
    /// after the `problems` found while reading (`CustodyLog.verify`, `CustodyStore.verifyChain`).
    public static func walk(_ entries: [Entry], head: (seq: UInt64, hash: String), problems found: [Problem]) -> CustodyVerification {
        var result = CustodyVerification()
        var problems = found
        result.events = entries.count
        result.headSeq = entries.last?.key ?? 0
        var brokenLinks: [Int] = []  // index i: link between entries[i-1] and entries[i] is broken, unexplained
        var offset: Int64 = 0        // event.seq − key of the previous parsed event
        for (i, entry) in entries.enumerated() {
            let k = entry.key
            guard let e = entry.event else {
                problems.append(.init(kind: .changed, seq: k, detail: "stored event does not parse"))
                continue
            }
            if !entry.selfConsistent {
                problems.append(.init(kind: .changed, seq: k, detail: "content does not match its hash"))
            }
            let previousKey = i > 0 ? entries[i - 1].key : 0
            var explained = false
            if k > previousKey + 1 {
                problems.append(.init(kind: .removed, seq: previousKey + 1,
                                      detail: k == previousKey + 2 ? "seq \(previousKey + 1) is missing"
                                          : "seqs \(previousKey + 1)…\(k - 1) are missing"))
                explained = true
            }
            let d = Int64(bitPattern: e.seq &- k)
            if d != offset {
                if d > offset {
                    let first = UInt64(Int64(k) + offset)
                    problems.append(.init(kind: .removed, seq: first,
                                          detail: "event stored at \(k) says seq \(e.seq): \(d - offset) event(s) removed and the rest renumbered"))
                } else {
                    let count = offset - d
                    let first = UInt64(Int64(k) - count)
                    problems.append(.init(kind: .inserted, seq: first,
                                          detail: "event stored at \(k) says seq \(e.seq): \(count) event(s) inserted at \(first)"))
                }
                offset = d
                explained = true
            }
            let expectedPrev = i == 0 ? (k == 1 ? CustodyEvent.genesisHash : nil) : entries[i - 1].event?.hash
            if let expectedPrev, e.prevHash != expectedPrev, !explained, entry.selfConsistent {
                brokenLinks.append(i)
            }
        }
        // Broken links: two in a row around an event → that event; one alone → the event before it.
        var j = 0
        while j < brokenLinks.count {
            let i = brokenLinks[j]
            if j + 1 < brokenLinks.count, brokenLinks[j + 1] == i + 1 {
                problems.append(.init(kind: .changed, seq: entries[i].key, detail: "changed and re-hashed: neither link holds"))
                j += 2
            } else if i > 0 {
                problems.append(.init(kind: .changed, seq: entries[i - 1].key,
                                      detail: "changed and re-hashed: event \(entries[i].key) does not carry its hash"))
                j += 1
            } else {
                problems.append(.init(kind: .changed, seq: entries[i].key, detail: "first event's prevHash is not the genesis hash"))
                j += 1
            }
        }
        // The head written with the last append.
        let last = entries.last
        if let last, let e = last.event {
            if last.key < head.seq {
                problems.append(.init(kind: .removed, seq: last.key + 1, detail: "the log's head is \(head.seq): the tail after \(last.key) is missing"))
            } else if last.key > head.seq {
                problems.append(.init(kind: .inserted, seq: head.seq + 1, detail: "events after the recorded head \(head.seq)"))
            } else if e.hash != head.hash, last.selfConsistent {
                problems.append(.init(kind: .changed, seq: last.key, detail: "changed and re-hashed: the log's head names another hash"))
            }
        } else if last == nil, head.seq > 0 {
            problems.append(.init(kind: .removed, seq: 1, detail: "the log is empty but its head is \(head.seq)"))
        }
        var seen = Set<Problem>()
        result.problems = problems.filter { seen.insert($0).inserted }.sorted { ($0.seq, $0.kind.rawValue) < ($1.seq, $1.kind.rawValue) }
        return result
    }
}
