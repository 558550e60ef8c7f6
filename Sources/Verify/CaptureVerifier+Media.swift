import CaptureFormat
import Ground
import Media

extension CaptureVerifier {
    /// The media evidence of issue 7 (docs/media.md), all facts: container and stream facts of
    /// the delivery file, the audio master and the ring frames; for a video, the streamed-chunk
    /// commitment recomputed from the delivery file; for a still with a second view, the
    /// parallax measurement. Only files the report already lists (regular files, read without
    /// following symlinks) are opened; a file the caller's snapshot holds (`sources`) is read
    /// from that source, never by its path.
    func measureMedia(_ record: CaptureRecord?, location c: CaptureLocation, sources: [String: any ByteSource] = [:],
                      into report: inout CaptureReport) {
        guard report.error == nil else { return }
        var media: [CaptureReport.MediaFile] = []
        let delivery = (role: FileRole.media, path: c.deliveryFile,
                        relativePath: report.files.first { $0.path == c.deliveryFile }?.relativePath
                            ?? String(c.deliveryFile.split(separator: "/").last ?? ""))
        let listed = report.files.filter { [.audio, .ringFrame].contains($0.role) }.map { (role: $0.role, path: $0.path, relativePath: $0.relativePath) }
        for f in [delivery] + listed {
            do {
                media.append(.init(role: f.role, file: f.relativePath, facts: try Self.facts(f.path, sources[f.path]), error: nil))
            } catch {
                media.append(.init(role: f.role, file: f.relativePath, facts: nil,
                                   error: .init(code: error.code, message: error.description)))
            }
        }
        report.media = media

        if report.kind == .video, report.streamedChunks != nil {
            let recomputer = StreamedChunkRecomputer()
            report.streamedChunks?.recomputation = sources[c.deliveryFile].map {
                recomputer.recompute(source: $0, name: c.deliveryFile, expected: record?.streamedChunks)
            } ?? recomputer.recompute(path: c.deliveryFile, expected: record?.streamedChunks)
        }

        if report.kind == .still, let sv = record?.secondView,
           let second = report.files.first(where: { $0.role == .secondView }) {
            let calibration = SecondViewCalibration(baselineMm: sv.baselineMm, focalLengthPx: sv.calibration.focalLengthPx,
                                                    imageWidth: sv.calibration.imageWidth)
            if let primary = sources[c.deliveryFile], let secondSource = sources[second.path] {
                report.parallax = Parallax.measure(primary: primary, second: secondSource, calibration: calibration,
                                                   primaryName: c.deliveryFile, secondName: second.path)
            } else {
                report.parallax = Parallax.measure(primaryPath: c.deliveryFile, secondPath: second.path, calibration: calibration)
            }
        }
    }

    /// Media facts of `path`, from its snapshot source when there is one.
    static func facts(_ path: String, _ source: (any ByteSource)?) throws(MediaError) -> MediaFacts {
        if let source { return try MediaFacts.read(source: source, name: path) }
        return try MediaFacts.read(path: path)
    }
}
