import C2PA
import FuzzSupport

// JUMBF superboxes (ISO 19566-5) and the C2PA manifest store read from them: every manifest's
// claim, signature and CBOR assertion contents.
fuzzMain { bytes in
    _ = try? JUMBFBox(parsing: bytes)
    guard let store = try? ManifestStore(parsing: bytes) else { return }
    for m in store.manifests {
        if let claim = m.claimBytes { _ = try? Claim(label: m.label, bytes: claim) }
        if let signature = m.signatureBytes { _ = try? COSESign1(parsing: signature) }
        for a in m.assertions { _ = try? Manifest.cborContent(of: a) }
    }
}
