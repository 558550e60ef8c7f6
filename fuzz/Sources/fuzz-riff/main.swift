import C2PA
import FuzzContainers
import FuzzSupport

// RIFF (WebP, WAV, AVI): the top-level chunk walk, pad bytes, the C2PA chunk and the XMP chunk.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    checkContainer({ () throws(ContainerError) in try RIFFContainer.manifest(in: source) },
                   xmp: { () throws(ContainerError) in try RIFFContainer.xmpPacket(in: source) }, count: bytes.count)
}
