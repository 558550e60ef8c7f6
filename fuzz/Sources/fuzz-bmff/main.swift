import C2PA
import FuzzSupport

// ISO BMFF boxes (sizes, largesize, uuid, full boxes, nesting) and the C2PA `uuid` manifest box.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    guard let boxes = try? BMFFBox.parse(source) else { return }
    _ = BMFFBox.boxes(at: "/moov/trak/mdia", in: boxes)
    if case .found(let location)? = try? BMFFContainer.manifest(in: source, boxes: boxes) {
        _ = try? ManifestStore(parsing: location.storeBytes)
    }
}
