import C2PA
import FuzzSupport

// JPEG marker segments (through the scan data) and APP11 reassembly of the manifest store;
// a reassembled store is parsed as JUMBF.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    _ = try? JPEGContainer.segments(of: source)
    _ = try? JPEGContainer.segments(of: source, throughScanData: true)
    if case .found(let location)? = try? JPEGContainer.manifest(in: source) {
        for r in location.ranges { precondition(r.lowerBound >= 0 && r.upperBound <= Int64(bytes.count)) }
        _ = try? ManifestStore(parsing: location.storeBytes)
    }
}
