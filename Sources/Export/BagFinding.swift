/// One problem `verify-export` found in a bag. `code` is stable; `path` names the file concerned
/// (bag-relative) and `sequence` the custody event, when there is one.
public struct BagFinding: Codable, Sendable, Equatable, CustomStringConvertible {
    /// - `bag.notABag` — no `bagit.txt`, or it does not declare BagIt 1.0 / UTF-8.
    /// - `bag.tagFileMissing` — a required tag file is absent (`bag-info.txt`, manifests,
    ///   `custody.json`, `custody.cose`, `archive-cert.pem`).
    /// - `bag.manifestMalformed` — a manifest line is not `<64 hex>  <path>` or names an unsafe path.
    /// - `bag.payloadMissing` — a file listed in `manifest-sha256.txt` is absent (a removed file).
    /// - `bag.payloadChanged` — a payload file's SHA-256 differs from the manifest (a flipped payload byte).
    /// - `bag.payloadUnlisted` — a file under `data/` is in no manifest (an added file).
    /// - `bag.tagFileChanged` — a tag file's SHA-256 differs from `tagmanifest-sha256.txt` (a flipped tag byte).
    /// - `bag.tagFileUnlisted` — a file outside `data/` is in no tag manifest (an added tag file).
    /// - `bag.oxumMismatch` — `Payload-Oxum` disagrees with the payload on disk.
    /// - `signature.*` — `custody.cose` does not verify over `custody.json` (see `CustodySignature`).
    /// - `custody.malformed` — `custody.json` does not decode.
    /// - `custody.fileMismatch` — custody.json's file list disagrees with the payload manifest.
    /// - `custody.bagMismatch` — custody.json names another bag than bag-info.txt's External-Identifier.
    /// - `custody.eventTampered`, `custody.chainBroken`, `custody.sequenceGap`,
    ///   `custody.headMismatch`, `custody.empty`, `custody.unknownFormat` — the custody chain proof
    ///   does not recompute (see `CustodyChain`).
    /// - `custody.eventRedacted` — a record's own custody event, or the export's replication
    ///   event, is shipped redacted (only events about other records may be).
    public var code: String
    public var path: String?
    public var sequence: UInt64?
    public var detail: String

    public init(_ code: String, path: String? = nil, sequence: UInt64? = nil, _ detail: String) {
        self.code = code
        self.path = path
        self.sequence = sequence
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
