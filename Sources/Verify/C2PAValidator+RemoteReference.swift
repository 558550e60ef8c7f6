import C2PA
import Ground

/// A file with no embedded manifest store may name a remote one: the XMP `dcterms:provenance`
/// URL (C2PA 11.5). c2pa-rs fetches it when remote fetching is on and otherwise fails with
/// "must fetch remote manifests from url …" (`Error::RemoteManifestUrl`), which it records as
/// `manifest.inaccessible` when such a file is added as an ingredient
/// (sdk/src/ingredient.rs). We never fetch: an archive verifying in place makes no network
/// calls. The integrity stays `unsigned` (nothing embedded is signed), the reason names the
/// URL, and `manifest.inaccessible` is reported as informational with the URL.
extension C2PAValidator {
    public static let remoteManifestNotFetched = StatusCode.manifestInaccessible

    /// Notes the remote manifest reference of a file whose container holds no store.
    func noteRemoteReference(_ read: AssetContainer.Read, source: some ByteSource, into r: inout C2PAReport) {
        guard let packet = AssetContainer.xmpPacket(read, source: source), let value = XMPProvenance.provenance(in: packet),
              let url = XMPProvenance.remoteURL(value) else { return }
        r.reason = "remote manifest referenced, not fetched: \(url)"
        r.informational.append(.init(code: Self.remoteManifestNotFetched, url: url,
                                     explanation: "remote manifest not fetched (verification makes no network calls)"))
    }
}
