extension ClaimSchema {
    /// Splits a capture's known values into claims to commit and ladder claims to declare
    /// never-recorded: every ladder claim id without a value is declared; free-form
    /// `context.*` ids are committed as given. Unknown ids are refused by name.
    public static func partition(_ values: [String: String]) throws(CommitError) -> (claims: [ContextClaim], neverRecorded: [String]) {
        var claims: [ContextClaim] = []
        for (id, value) in values.sorted(by: { utf8Precedes($0.key, $1.key) }) {
            guard let c = ContextClaim(claimId: id, value: value) else { throw .unknownClaim(id) }
            claims.append(c)
        }
        let never = expected.map(\.claimId).filter { values[$0] == nil }
        return (claims, never)
    }

    /// The `location.grid-region` value of a fix: its 1° cell, by the floor of latitude and
    /// longitude, as `N52E013` / `S34W071` (hemisphere letter, 2-digit latitude, 3-digit longitude).
    public static func gridRegion(latitude: Double, longitude: Double) -> String? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        let lat = Int(latitude.rounded(.down)), lon = Int(longitude.rounded(.down))
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(abs(v))
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return (lat < 0 ? "S" : "N") + pad(lat, 2) + (lon < 0 ? "W" : "E") + pad(lon, 3)
    }
}
