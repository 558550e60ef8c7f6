import C2PA
import CaptureFormat
import Ground
import Media

extension CaptureVerifier {
    /// The media evidence of a report made without it (`ingest --defer-media`), from `sources`:
    /// report path → a source over the bytes of that file as stored (`files[].path`, the paths
    /// as ingest read them). Exactly what `verify` adds with `measuresMedia` on — media facts,
    /// the streamed-chunk recomputation, parallax — in the same order, reading the app's signed
    /// record from the delivery file's active manifest as `verify` does (no signature, hash or
    /// trust is checked again: the report's verdict stands). Give a source for every file of
    /// `mediaRoles`: one without is read by its path, as `verify` would.
    public func addingMedia(to stored: CaptureReport, sources: [String: any ByteSource]) -> CaptureReport {
        var report = stored
        report.media = nil
        report.parallax = nil
        report.streamedChunks?.recomputation = nil
        let location = CaptureLocation(deliveryFile: report.path, captureFolder: nil, dumpRoot: "")
        let record = sources[report.path].flatMap { source -> CaptureRecord? in
            guard let bytes = Self.activeAssertion(CaptureRecord.assertionLabel, in: source) else { return nil }
            return try? CaptureRecord(decoding: bytes)
        }
        measureMedia(record, location: location, sources: sources, into: &report)
        return report
    }

    /// The roles of the files the media analyses read (the delivery file is `media`).
    public static let mediaRoles: Set<FileRole> = [.media, .audio, .ringFrame, .secondView]

    /// The CBOR content of the active manifest's assertion `label`, found exactly as
    /// `C2PAValidator.validate(source:collecting:)` collects it (container → manifest store →
    /// active manifest → first `cbor` box of the labelled assertion), nothing validated.
    static func activeAssertion(_ label: String, in source: some ByteSource) -> [UInt8]? {
        guard let read = try? AssetContainer.read(source), case .found(let location) = read.lookup,
              let store = try? ManifestStore(parsing: location.storeBytes),
              let box = store.activeManifest?.assertion(labelled: label),
              let content = box.contentBoxes(ofType: "cbor").first else { return nil }
        return Array(content.payload)
    }
}
