import C2PA

/// What every container harness checks on what a reader returned for `bytes`: the carrier's
/// ranges lie inside the input and are ordered; a found store goes on into the JUMBF parser;
/// an XMP packet goes on into the provenance scan. Thrown (typed) errors are the expected
/// answer to bad bytes and end the input's run; a crash, hang, leak or failed precondition is
/// a finding.
public func checkContainer(_ lookup: () throws(ContainerError) -> ManifestLookup,
                           xmp: () throws(ContainerError) -> [UInt8]?, count: Int) {
    if case .found(let location)? = try? lookup() {
        var end: Int64 = 0
        for r in location.ranges {
            precondition(r.lowerBound >= end && r.upperBound <= Int64(count), "carrier range \(r) of \(count) bytes")
            end = r.upperBound
        }
        _ = try? ManifestStore(parsing: location.storeBytes)
    }
    if let packet = try? xmp(), let value = XMPProvenance.provenance(in: packet) {
        _ = XMPProvenance.remoteURL(value)
    }
}
