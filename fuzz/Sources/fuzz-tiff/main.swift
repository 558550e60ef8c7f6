import C2PA
import FuzzContainers
import FuzzSupport

// TIFF, BigTIFF and DNG: byte order, the IFD chain of pages, SubIFD/Exif/GPS IFDs, cycles, the
// C2PA tag 0xCD41 and the XMP tag 700.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    _ = try? TIFFContainer.isDNG(source)
    checkContainer({ () throws(ContainerError) in try TIFFContainer.manifest(in: source) },
                   xmp: { () throws(ContainerError) in try TIFFContainer.xmpPacket(in: source) }, count: bytes.count)
}
