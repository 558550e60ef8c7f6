import Custody
import Foundation
import LMDB

extension CustodyLog {
    /// Walks the whole chain and names every event changed, removed or inserted.
    ///
    /// Each event must hash to its stored hash (else: changed); its seq must equal its key and
    /// follow the one before (a key gap or a seq running ahead of its key: removed; a seq
    /// running behind its key: inserted); its prevHash must equal the previous event's hash (a
    /// single broken link after an event whose own hash is consistent: that event was changed
    /// and re-hashed; two broken links around an event: that event was). The `custody.meta`
    /// head must name the last event (else the tail was removed, changed or appended to).
    public func verify() throws -> CustodyVerification {
        typealias Entry = CustodyVerification.Entry
        var entries: [Entry] = []
        var head: (seq: UInt64, hash: String) = (0, CustodyEvent.genesisHash)
        var problems: [CustodyVerification.Problem] = []
        try environment.read { txn in
            head = try self.head(in: txn)
            try txn.scan(events) { key, value in
                guard key.count == 8 else {
                    problems.append(.init(kind: .inserted, seq: 0, detail: "entry with a \(key.count)-byte key"))
                    return .next
                }
                let k = Self.seq(key)
                if let e = try? CustodyEvent(stored: value) {
                    entries.append(Entry(key: k, event: e, selfConsistent: e.computedHash() == e.hash))
                } else {
                    entries.append(Entry(key: k, event: nil, selfConsistent: false))
                }
                return .next
            }
        }
        return CustodyVerification.walk(entries, head: head, problems: problems)
    }
}
