import Foundation
import Ground

/// Why one capture could not be stored. `code` is stable.
public enum IngestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file of the capture changed while ingest read it (`FileByteSource.confirmUnchanged`:
    /// size, inode, mtime or ctime differ after staging or after verification, or it grew;
    /// or its bytes hash to another digest than the verifier reported). Nothing of the capture
    /// is stored; a re-run ingests it. `reason` says what differed.
    case sourceChanged(path: String, reason: String)

    public var code: String {
        switch self {
        case .sourceChanged: StatusCode.ingestSourceChanged
        }
    }

    /// The capture-level error of a file that changed while it was read.
    public static func changed(_ change: FileChange) -> IngestError {
        .sourceChanged(path: change.path, reason: change.reason + (change.after.map { " (was \(change.before); now \($0))" } ?? ""))
    }

    public var description: String {
        switch self {
        case .sourceChanged(let p, let reason): "\(code): \(p) changed while it was being ingested (\(reason)); nothing of the capture stored"
        }
    }
}
