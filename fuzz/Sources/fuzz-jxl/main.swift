import C2PA
import FuzzContainers
import FuzzSupport

// JPEG XL's ISO BMFF-style box container: box sizes and count, the jumb store box, the xml box.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    checkContainer({ () throws(ContainerError) in try JXLContainer.manifest(in: source) },
                   xmp: { () throws(ContainerError) in try JXLContainer.xmpPacket(in: source) }, count: bytes.count)
}
