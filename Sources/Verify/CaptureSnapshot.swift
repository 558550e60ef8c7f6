import CaptureFormat
import Ground

/// What one capture is, as read once: its location and, for each file that was read (the
/// delivery file and every evidence, ring, depth, second-view and disclosure file), its
/// content ID and a random-access source over exactly those bytes — memory for a file staged
/// inline; for a larger one the staged chunks read back from the store (ingest) or the
/// descriptor that was hashed (`verifyWalked`, its `fstat` identity checked again after
/// verification). The verifier reads a file from here, never again by path; with a
/// `listing` (ingest's and `verify`'s walk, reverify's stored paths) every presence question
/// is answered from it too, and a listed file the caller could not read is in `unread`.
public struct CaptureSnapshot: Sendable {
    public struct File: Sendable {
        public let id: ContentID
        /// Nil for a file the verifier only needs the digest of.
        public let source: (any ByteSource)?
        /// The bytes, when the source holds them in memory (inline-staged).
        public let bytes: [UInt8]?

        public init(id: ContentID, source: (any ByteSource)?, bytes: [UInt8]? = nil) {
            self.id = id
            self.source = source
            self.bytes = bytes
        }
    }

    public let location: CaptureLocation
    /// Path (as `CaptureLocation` spells it) → file.
    public let files: [String: File]
    /// The capture folder's entries, when presence and listings must come from the snapshot
    /// and not the file system (`reverify`: the record's stored files; ingest: what its walk
    /// saw); nil asks the folder.
    public let listing: CaptureListing?
    /// Path → why a file the listing holds as regular could not be read (not opened, over the
    /// size limit, a read error): the verifier reports it as it would have found it, without
    /// trying again.
    public let unread: [String: FileOpenError]

    public init(location: CaptureLocation, files: [String: File], listing: CaptureListing? = nil,
                unread: [String: FileOpenError] = [:]) {
        self.location = location
        self.files = files
        self.listing = listing
        self.unread = unread
    }
}

extension CaptureVerifier {
    /// Verifies a capture from its snapshot: every digest is the snapshot's, the delivery
    /// file's C2PA validation reads its source, bundles parse the staged bytes; with a
    /// listing, every presence and listing check reads it instead of the capture folder.
    public func verify(_ snapshot: CaptureSnapshot) -> CaptureReport {
        verify(snapshot.location, knownDigests: snapshot.files.mapValues(\.id),
               knownContents: snapshot.files.compactMapValues(\.bytes), sources: snapshot.files.compactMapValues(\.source),
               listing: snapshot.listing, unread: snapshot.unread)
    }
}
