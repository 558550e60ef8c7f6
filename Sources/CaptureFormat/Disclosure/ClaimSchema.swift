import Ground

/// The context-claim schema: four ladders of rungs, coarsest first, plus free-form `context.*`.
///
/// A claim id is `<ladder>.<rung name>` (`time.day`) or `context.<name>`; its rung number is
/// its position in its ladder from 0 (free-form claims: 0). Every capture commits or declares
/// never-recorded every ladder claim.
public enum ClaimSchema {
    public struct Ladder: Sendable {
        public let name: String
        public let rungs: [String]
    }

    public static let location = Ladder(name: "location", rungs: ["grid-region", "country", "region", "city", "exact"])
    public static let time = Ladder(name: "time", rungs: TimeRung.allCases.map(\.name))
    public static let identity = Ladder(name: "identity", rungs: ["key-fingerprint", "device-model", "named"])
    public static let sensor = Ladder(name: "sensor", rungs: ["present", "residual-summary"])

    public static let ladders = [location, time, identity, sensor]
    public static let freeFormPrefix = "context."

    /// Every expected ladder claim id with its rung, in ladder order.
    public static let expected: [(claimId: String, rung: UInt32)] = ladders.flatMap { l in
        l.rungs.enumerated().map { ("\(l.name).\($0.element)", UInt32($0.offset)) }
    }

    /// The ids of `expected`, as a set (built once).
    public static let ladderClaimIds: Set<String> = Set(expected.map(\.claimId))

    private static let rungByClaimId: [String: UInt32] = Dictionary(uniqueKeysWithValues: expected.map { ($0.claimId, $0.rung) })

    /// The `short` profile's selection: location ≤ country, time ≤ day, identity = key-fingerprint.
    public static let shortProfile: Set<String> = [
        "location.grid-region", "location.country", "time.year", "time.month", "time.day", "identity.key-fingerprint",
    ]

    /// The rung a claim id must carry, or nil when the id is neither a ladder claim nor a
    /// well-formed free-form one.
    public static func rung(for claimId: String) -> UInt32? {
        if let r = rungByClaimId[claimId] { return r }
        return isFreeForm(claimId) ? 0 : nil
    }

    /// `context.` followed by 1–64 of `[a-z0-9-]`.
    public static func isFreeForm(_ claimId: String) -> Bool {
        guard claimId.hasPrefix(freeFormPrefix) else { return false }
        let rest = claimId.utf8.dropFirst(freeFormPrefix.utf8.count)
        return (1...64).contains(rest.count)
            && rest.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
    }

    public static func isLadderClaim(_ claimId: String) -> Bool { rungByClaimId[claimId] != nil }

    /// Format checks a verifier can make on an opened value: time rungs have their rung's
    /// shape; the key fingerprint is 64 lowercase hex; nothing else is constrained.
    public static func valueConforms(claimId: String, value: String) -> Bool {
        if claimId.hasPrefix("time."), let r = TimeRung(name: String(claimId.dropFirst(5))) {
            return CaptureTime(value)?.rung == r
        }
        if claimId == "identity.key-fingerprint" { return ContentID(hex: value) != nil }
        return true
    }
}
