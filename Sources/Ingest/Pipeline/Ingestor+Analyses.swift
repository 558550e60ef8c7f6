import Custody
import Media
import Query

extension Ingestor {
    /// The analyses state of a record this run makes: `pending` when they are deferred
    /// (`--defer-media`; the delivery path kept for the thumbnail's decoder), `done` with this
    /// tool and the media libraries when the verifier measured media (default `ingest`: the
    /// worker made the thumbnail too), none with `--no-media`.
    func analyses(for p: PreparedCapture) -> RecordAnalyses? {
        if options.deferAnalyses { return .pending(deliveryPath: p.location.deliveryFile) }
        guard verifier.measuresMedia else { return nil }
        return RecordAnalyses.done(by: options.agent.tool)
    }
}

extension RecordAnalyses {
    /// Done by `tool` (`exhibit-archive <version>`) on this process's media libraries.
    public static func done(by tool: CustodyEvent.Tool) -> RecordAnalyses {
        RecordAnalyses(state: .done, tool: "\(tool.name) \(tool.version)", libraries: Self.libraries)
    }

    /// `MediaLibraries.versions`, read once per process.
    static let libraries = MediaLibraries.versions
}
