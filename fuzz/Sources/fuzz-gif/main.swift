import C2PA
import FuzzContainers
import FuzzSupport

// GIF: header, colour tables, extension and image blocks with their data sub-blocks, the C2PA
// application extension and the XMP Data extension.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    _ = try? GIFContainer.applicationBlocks(of: source, untilImage: false)
    checkContainer({ () throws(ContainerError) in try GIFContainer.manifest(in: source) },
                   xmp: { () throws(ContainerError) in try GIFContainer.xmpPacket(in: source) }, count: bytes.count)
}
