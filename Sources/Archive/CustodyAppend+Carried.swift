import Foundation

extension CustodyAppend {
    /// This event made now for the chain head `head` predicts (seq `head.seq + 1` after
    /// `head.hash`), so a writer that appends it at that head does no encoding or hashing inside
    /// its transaction; and the head after it, to carry to the next event. The store still gives
    /// the seq and previous hash inside the transaction: when they are not the predicted ones
    /// (another process appended, or an earlier event of the batch was not appended as
    /// predicted), `make` builds the event for the real head as it always did — the same time and
    /// salt, so the event differs only in its chain fields. `mismatch` is told when that happens.
    public func carried(after head: CustodyHead, mismatch: @escaping @Sendable () -> Void) throws -> (CustodyAppend, CustodyHead) {
        let seq = head.seq + 1
        let made = try make(seq, head.hash)
        let prevHash = head.hash
        let original = make
        let carried = CustodyAppend(objects: objects) { s, p in
            if s == seq, p == prevHash { return made }
            mismatch()
            return try original(s, p)
        }
        return (carried, CustodyHead(seq: seq, hash: made.hash))
    }
}
