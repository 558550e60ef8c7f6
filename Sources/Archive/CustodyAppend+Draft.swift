import Crypto
import Custody
import Foundation
import Ground

extension CustodyAppend {
    /// `draft` in the version `store` gives an appended event (`CustodyStore.version(for:)`:
    /// v2, or v3 for an agent that states an organization, unless the store writes another),
    /// for a caller that appends through `RecordStore.put(_:custody:)`.
    public init(_ draft: CustodyDraft, for store: any CustodyStore) throws {
        try self.init(draft, version: store.version(for: draft))
    }

    /// The event `draft` becomes, built in `version` (`CustodyStore.version(for:)`) once the store
    /// gives it its seq and previous hash. The time (the draft's, else now) and the salt are
    /// fixed here, so a retried transaction builds the same event.
    public init(_ draft: CustodyDraft, version: CustodyEvent.Version) throws {
        let time = CustodyEvent.timestamp(draft.time ?? Date())
        let salt = version.isRedactable ? Hex.encode(try SecureRandom.bytes(CustodyEvent.saltBytes)) : nil
        self.init(objects: draft.objects.map(\.id)) { seq, prevHash in
            let event = CustodyEvent(draft, seq: seq, time: time, prevHash: Hex.encode(prevHash), version: version, salt: salt)
            return (event.storedBytes(), Hex.decode(event.hash) ?? [])
        }
    }
}
