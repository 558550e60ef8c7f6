import C2PA
import FuzzContainers
import FuzzSupport

// SVG: the streaming markup scanner (tags, attributes, comments, CDATA, PIs, DOCTYPE, depth),
// the base64 manifest text under svg/metadata/c2pa:manifest and the xpacket XMP.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    _ = SVGContainer.looksLikeMarkup(Array(bytes.prefix(64)))
    checkContainer({ () throws(ContainerError) in try SVGContainer.manifest(in: source) },
                   xmp: { () throws(ContainerError) in try SVGContainer.xmpPacket(in: source) }, count: bytes.count)
}
