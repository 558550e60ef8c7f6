import Foundation
import Ground

extension CustodyEvent {
    /// `draft` as event `seq` after `prevHash`, hashed.
    public init(_ draft: CustodyDraft, seq: UInt64, time: String, prevHash: String, version: Version, salt: String?) {
        self.init(seq: seq, time: time, eventType: draft.eventType, operator: draft.agent.operator, tool: draft.agent.tool,
                  host: draft.agent.host, objects: draft.objects, outcome: draft.outcome, outcomeDetail: draft.outcomeDetail,
                  prevHash: prevHash, hash: "", version: version, salt: salt,
                  organization: version == .v3 ? (draft.agent.organization ?? "") : nil)
        hash = computedHash()
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC.
    public static func timestamp(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var t = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        var tm = tm()
        gmtime_r(&t, &tm)
        let frac = ((ms % 1000) + 1000) % 1000
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1,
                      Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec), Int(frac))
    }
}

/// The version rule of an appended event, for any store: v3 when the agent states an
/// organization, else v2 (what `CustodyStore.version(for:)` answers unless a store writes another).
public enum CustodyStoreVersion {
    public static func version(for draft: CustodyDraft) -> CustodyEvent.Version {
        (draft.agent.organization ?? "").isEmpty ? .v2 : .v3
    }
}
