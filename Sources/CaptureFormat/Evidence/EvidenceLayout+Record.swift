import Ground

/// One sink's result as the verifier reports it (issue 4's `sidecars` entries).
public struct SidecarResult: Hashable, Sendable {
    public var sink: SidecarSink
    public var state: SidecarState
    public var committedSha256: ContentID?
    public var actualSha256: ContentID?
    /// The local file or folder examined (`…/evidence/<name>`), when a name was mapped.
    public var file: String?
    /// What is wrong with the recorded path, if anything.
    public var pathFindings: [PathFinding]
    /// Why no bytes were read although a file was expected (`symlink`, `symlink-escapes-dump`,
    /// `not-a-regular-file`, `not-a-folder`, `unreadable`), or nil.
    public var note: String?
}

/// Everything the layout check found for one capture.
public struct EvidenceReport: Hashable, Sendable {
    public var sidecars: [SidecarResult]
    /// Files in `evidence/` no sink names (relative paths).
    public var unreferenced: [String]
    /// Ring folder entries that are not frames (symlinks, folders, bad names).
    public var ringRejected: [String]
}

extension EvidenceLayout {
    /// The names the record's collected sinks map to inside `evidence/`.
    public func referencedNames(for record: CaptureRecord) -> Set<String> {
        Set(record.sinks.compactMap { $0.record.path.flatMap { RecordedPath($0).name } })
    }

    /// Checks every sink of `record` against this capture's evidence folder: maps recorded
    /// paths by name, hashes regular files (never following a symlink), recomputes the ring
    /// listing digest, and lists unreferenced files.
    public func evaluate(_ record: CaptureRecord) -> EvidenceReport {
        evaluate(record, digest: { (path: String) throws(EvidenceReadError) -> ContentID in try EvidenceLayout.sha256(ofFileAt: path) })
    }

    /// As `evaluate(_:)`, with the caller's digest of each regular file (sidecars and ring
    /// frames): a reader that already hashed a file (ingest's CAS put) supplies its digest, or
    /// records what was read. `digest` is only called for entries `lstat` saw as regular files.
    public func evaluate(_ record: CaptureRecord, digest: (String) throws(EvidenceReadError) -> ContentID) -> EvidenceReport {
        var results: [SidecarResult] = []
        var ringRejected: [String] = []
        for (sink, statement) in record.sinks {
            guard let path = statement.path else {
                results.append(SidecarResult(sink: sink, state: SidecarState.evaluate(statement, found: .absent),
                                             committedSha256: nil, actualSha256: nil, file: nil, pathFindings: [], note: nil))
                continue
            }
            let loc = locate(path)
            var actual: ContentID?
            var note: String?
            switch (loc.entry, sink) {
            case (.directory, .ring):
                if let local = loc.localPath {
                    do {
                        let r = try ringDigest(at: local, digest: digest)
                        actual = r.digest
                        ringRejected = r.scan.rejected.map(\.name)
                    } catch {
                        note = "unreadable"
                    }
                }
            case (.file, let s) where s != .ring:
                if let local = loc.localPath {
                    do { actual = try digest(local) } catch { note = error.code == StatusCode.evidenceSymlink ? "symlink" : "unreadable" }
                }
            case (.symlink(_, let escapes), _):
                note = escapes ? "symlink-escapes-dump" : "symlink"
            case (.absent, _):
                note = nil
            case (_, .ring):
                note = "not-a-folder"
            default:
                note = "not-a-regular-file"
            }
            let found: SidecarState.Found = actual.map { .present($0) } ?? .absent
            results.append(SidecarResult(sink: sink, state: SidecarState.evaluate(statement, found: found),
                                         committedSha256: statement.committedDigest, actualSha256: actual,
                                         file: loc.localPath, pathFindings: loc.recorded.findings, note: note))
        }
        return EvidenceReport(sidecars: results, unreferenced: unreferenced(referencedNames: referencedNames(for: record)),
                              ringRejected: ringRejected)
    }
}
