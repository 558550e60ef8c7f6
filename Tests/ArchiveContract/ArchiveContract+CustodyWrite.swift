import Archive
import Foundation
import Ground
import Ingest
import Testing

extension ArchiveContract {
    /// `CustodyStore.write`, export's call: in one transaction the body appends, reads its own
    /// appends back (by page and by object) and appends again; all commit together, chained. A
    /// body that throws after appending leaves no event: head and object look-ups unchanged.
    public static func custodyWriteCommitsTogether(_ s: ArchiveSubject) throws {
        for n in 0..<3 { try s.custody.append([try event(naming: "before-\(n)")]) }
        let head = try s.custody.head()
        let export = "export-\(UUID())"
        let seqs = try s.custody.write { w -> [UInt64] in
            let first = try w.append([try event(naming: export, "dissemination"), try event(naming: "other")])
            #expect(first.map(\.seq) == [head.seq + 1, head.seq + 2])
            #expect(first.first?.prevHash == head.hash)
            #expect(try w.storedEvents(after: head.seq, limit: 10) == first)
            #expect(try w.storedEvents(after: head.seq, limit: 1) == [first[0]])
            #expect(try w.storedEvents(forObject: export) == [first[0]])
            let more = try w.append([try event(naming: export, "signature")])
            #expect(more.first?.prevHash == first.last?.hash)
            return (first + more).map(\.seq)
        }
        #expect(seqs == [head.seq + 1, head.seq + 2, head.seq + 3])
        #expect(try s.custody.head().seq == head.seq + 3)
        #expect(try s.custody.storedEvents(forObject: export).map(\.seq) == [head.seq + 1, head.seq + 3])
        #expect(try s.custody.verifyChain().isIntact)

        let after = try s.custody.head()
        let aborted = "export-\(UUID())"
        #expect(throws: Abort.self) {
            try s.custody.write { w in
                try w.append([try event(naming: aborted)])
                #expect(try w.storedEvents(forObject: aborted).count == 1)
                throw Abort()
            }
        }
        #expect(try s.custody.head() == after)
        #expect(try s.custody.storedEvents(forObject: aborted).isEmpty)
        #expect(try s.custody.verifyChain().isIntact)
    }
}
