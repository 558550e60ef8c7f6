import C2PA
import FuzzContainers
import FuzzSupport

// ID3v2.2-2.4 tags (MP3, and FLAC behind one; the first input byte picks which): header,
// extended header, unsynchronisation, frames, the GEOB manifest object and the PRIV XMP frame.
fuzzMain { bytes in
    guard let first = bytes.first else { return }
    let source = MemoryByteSource(Array(bytes.dropFirst()))
    if let header = try? ID3Container.header(of: source) { _ = try? ID3Container.frames(of: source, header: header) }
    checkContainer({ () throws(ContainerError) in try ID3Container.manifest(in: source, flac: first & 1 == 1) },
                   xmp: { () throws(ContainerError) in try ID3Container.xmpPacket(in: source) }, count: bytes.count - 1)
}
