import C2PA
import FuzzContainers
import FuzzSupport

// PDF: startxref, classic xref tables and cross-reference streams (Flate + PNG predictors),
// /Prev and /XRefStm chains, object streams, objects and streams, /AF file specifications with
// the C2PA_Manifest embedded file, and the catalog's XMP /Metadata.
fuzzMain { bytes in
    let source = MemoryByteSource(bytes)
    checkContainer({ () throws(ContainerError) in try PDFContainer.manifest(in: source) },
                   xmp: { () throws(ContainerError) in try PDFContainer.xmpPacket(in: source) }, count: bytes.count)
}
