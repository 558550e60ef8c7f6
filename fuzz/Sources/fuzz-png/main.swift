import C2PA
import FuzzContainers
import FuzzSupport

// PNG chunks (lengths, types, CRC-32 of caBX), the caBX manifest store and the iTXt XMP packet.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    checkContainer({ () throws(ContainerError) in try PNGContainer.manifest(in: source) },
                   xmp: { () throws(ContainerError) in try PNGContainer.xmpPacket(in: source) }, count: bytes.count)
}
