import CaptureFormat
import Foundation
import Ground

/// Every file a verification read (or took the caller's digest for), with role and digest:
/// the report's `files`, which ingest stores.
struct FileLedger {
    let location: CaptureLocation
    let known: [String: ContentID]
    /// Bytes the caller already read (path → contents whose SHA-256 is `known[path]`).
    let knownContents: [String: [UInt8]]
    /// Sources over bytes the caller read (path → source whose SHA-256 is `known[path]`).
    let sources: [String: any ByteSource]
    /// The capture folder's entries when the caller's snapshot lists them (no file system).
    let listing: CaptureListing?
    /// Why the caller could not read a file it listed (path → error).
    let unread: [String: FileOpenError]
    /// The capture folder's layout over `listing`, made once (its paths normalised once, not
    /// per file asked about), when the snapshot lists the folder.
    let listed: EvidenceLayout?
    private(set) var entries: [CaptureReport.File] = []
    private var seen: Set<String> = []

    init(location: CaptureLocation, known: [String: ContentID], knownContents: [String: [UInt8]] = [:],
         sources: [String: any ByteSource] = [:], listing: CaptureListing? = nil, unread: [String: FileOpenError] = [:]) {
        self.location = location
        self.known = known
        self.knownContents = knownContents
        self.sources = sources
        self.listing = listing
        self.unread = unread
        listed = listing.flatMap { l in location.captureFolder.map { EvidenceLayout(captureFolder: $0, dumpRoot: location.dumpRoot, listing: l) } }
    }

    mutating func add(role: FileRole, path: String, sha256: ContentID, size: UInt64) {
        guard seen.insert(path).inserted else { return }
        entries.append(.init(role: role, path: path, relativePath: relative(path), sha256: sha256, size: size))
    }

    /// The digest of a regular file: the caller's, else read here (never through a symlink).
    mutating func digest(_ path: String, role: FileRole) throws(EvidenceReadError) -> ContentID {
        if let listed {
            // Listed by the caller's snapshot: its digest and size, nothing read here.
            let size = listed.regularFileSize(path)
            if size != nil, known[path] == nil, let why = unread[path] { throw Self.readError(why, path: path) }
            guard let d = known[path], let size else { throw .absent(path) }
            add(role: role, path: path, sha256: d, size: UInt64(size))
            return d
        }
        let size = CaptureVerifier.regularFileSize(path)
        if let d = known[path] {
            add(role: role, path: path, sha256: d, size: size ?? 0)
            return d
        }
        // Opened from the dump root's descriptor (never through a symlink, nothing outside the dump).
        let file: FileByteSource
        do { file = try DumpDirectory.file(path, under: location.dumpRoot) } catch { throw Self.readError(error, path: path) }
        let d = try EvidenceLayout.sha256(of: file)
        add(role: role, path: path, sha256: d, size: UInt64(file.count))
        return d
    }

    /// A file that could not be opened, as the evidence checks name it.
    static func readError(_ error: FileOpenError, path: String) -> EvidenceReadError {
        switch error {
        case .symlink(let p): .symlink(p)
        case .cannotOpen(_, let e) where e == .noSuchFileOrDirectory: .absent(path)
        case .cannotOpen(_, let e): .unreadable(path, errno: e.rawValue)
        case .notRegularFile, .tooLarge: .notRegularFile(path)
        }
    }

    /// Relative to the dump root when inside it (the report's sidecar `file`), else as given.
    func dumpRelative(_ path: String) -> String {
        path.hasPrefix(location.dumpRoot + "/") ? String(path.dropFirst(location.dumpRoot.count + 1)) : path
    }

    /// Relative to the capture folder when inside it, else to the dump root, else the name.
    func relative(_ path: String) -> String {
        for base in [location.captureFolder, location.dumpRoot].compactMap({ $0 }) where path.hasPrefix(base + "/") {
            return String(path.dropFirst(base.count + 1))
        }
        return String(path.split(separator: "/").last ?? "")
    }
}

extension CaptureVerifier {
    /// Sidecar states, unreferenced files and ring rejects for a capture with a record.
    func checkEvidence(_ record: CaptureRecord, location c: CaptureLocation, files: inout FileLedger, into report: inout CaptureReport) {
        guard let folder = c.captureFolder else {
            // A loose delivery file (or one of several in a folder): evidence pairs with none.
            report.sidecars = record.sinks.map { sink, statement in
                let finding = statement.path.map { RecordedPath($0).findings.map(\.rawValue) } ?? []
                return .init(sink: sink, state: SidecarState.evaluate(statement, found: .absent),
                             committedSha256: statement.committedDigest, actualSha256: nil, file: nil,
                             recordedPath: statement.path, notes: finding + (statement.path == nil ? [] : ["no-capture-folder"]))
            }
            return
        }
        let layout = EvidenceLayout(captureFolder: folder, dumpRoot: c.dumpRoot, listing: files.listing)
        let ringFolder: String? = record.evidence.ringBufferDir.path.flatMap { layout.locate($0).localPath }
        let roles = Dictionary(record.sinks.compactMap { s in s.record.path.flatMap { layout.locate($0).localPath }.map { ($0, s.sink) } },
                               uniquingKeysWith: { a, _ in a })
        let evidence = layout.evaluate(record) { (path: String) throws(EvidenceReadError) -> ContentID in
            let role: FileRole
            if let ring = ringFolder, path.hasPrefix(ring + "/") { role = .ringFrame } else { role = roles[path].map(FileRole.init(sink:)) ?? .evidence }
            return try files.digest(path, role: role)
        }
        report.sidecars = evidence.sidecars.map { s in
            .init(sink: s.sink, state: s.state, committedSha256: s.committedSha256,
                  actualSha256: s.actualSha256, file: s.file.map { files.dumpRelative($0) },
                  recordedPath: record.sinks.first { $0.sink == s.sink }?.record.path,
                  notes: s.pathFindings.map(\.rawValue) + (s.note.map { [$0] } ?? []))
        }
        if !evidence.ringRejected.isEmpty { report.ringRejected = evidence.ringRejected }
        report.unreferenced = evidence.unreferenced
        hashUnreferenced(layout, files: &files, report: report)
    }

    /// Lists the evidence entries no name in `referenced` covers, and hashes the regular files.
    func listUnreferenced(_ layout: EvidenceLayout, referenced: Set<String>, files: inout FileLedger, into report: inout CaptureReport) {
        report.unreferenced = layout.unreferenced(referencedNames: referenced)
        hashUnreferenced(layout, files: &files, report: report)
    }

    private func hashUnreferenced(_ layout: EvidenceLayout, files: inout FileLedger, report: CaptureReport) {
        for rel in report.unreferenced {
            let path = layout.evidenceFolder + "/" + rel
            if case .file = layout.entry(at: path) { _ = try? files.digest(path, role: .unreferenced) }
        }
    }

    /// The size of a regular file (`lstat`: a final symlink is not followed, so it is nil).
    /// One system call: `FileManager.attributesOfItem` also lists extended attributes.
    static func regularFileSize(_ path: String) -> UInt64? {
        guard let st = try? FileSystem.status(atPath: path), st.isRegularFile, st.size >= 0 else { return nil }
        return UInt64(st.size)
    }
}
