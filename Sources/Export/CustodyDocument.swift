import Foundation
import Ground
import Verify

/// `custody.json`: what was exported, by whom, when, with which tool, each record's
/// verification at ingest and at export, its sinks, its files in the bag and its custody
/// events with the chain that links them to the log head. Signed by `custody.cose`.
public struct CustodyDocument: Codable, Sendable, Equatable {
    public static let format = "exhibit-custody/1"

    public var format: String
    public var export: ExportInfo
    public var records: [RecordCustody]
    /// The custody log excerpt (nil when the archive has no custody log).
    public var custodyChain: CustodyChain?

    /// The encoder whose output is signed: sorted keys, pretty-printed, `/` unescaped, dates
    /// ISO 8601 (as `CaptureReport` JSON is stored at ingest).
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        return e
    }

    /// Decodes custody.json (and stored `CaptureReport` JSON): dates ISO 8601.
    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }

    public init(export: ExportInfo, records: [RecordCustody], custodyChain: CustodyChain?) {
        self.format = Self.format
        self.export = export
        self.records = records
        self.custodyChain = custodyChain
    }

    public struct ExportInfo: Codable, Sendable, Equatable {
        /// The bag's `External-Identifier` (`urn:uuid:…`).
        public var externalIdentifier: String
        public var caseName: String?
        public var sourceOrganization: String
        /// Who ran the export (`--operator`, else the login name).
        public var operatorName: String
        /// ISO 8601 UTC.
        public var time: String
        public var tool: String
        public var toolVersion: String
        public var host: String
        /// SHA-256 of the archive key's SubjectPublicKeyInfo DER (the key that signs custody.json).
        public var archiveKeyFingerprint: String
        /// Sequence of the `replication` event this export appended (nil without a custody log).
        public var replicationEvent: UInt64?
        /// Fingerprints (SPKI SHA-256) of the signer anchors the fresh verification used.
        public var signerAnchors: [String]
        public var tsaAnchors: [String]
    }

    public struct RecordCustody: Codable, Sendable, Equatable {
        public var recordId: ContentID
        public var kind: MediaKind
        public var integrity: Integrity
        public var trust: Trust?
        public var keyFingerprint: ContentID?
        public var captureTime: String?
        public var tsaTime: String?
        public var ingestTime: String
        public var failureCodes: [String]
        /// Sink → state, as the index holds it.
        public var sidecars: [SidecarSink: SidecarState]
        public var files: [BagFile]
        /// The report stored at ingest (`IndexedRecord.reportJSON`).
        public var verificationAtIngest: CaptureReport?
        /// The stored report's text when it does not decode as a `CaptureReport`.
        public var verificationAtIngestText: String?
        /// A fresh verification run over the copies in this bag.
        public var verificationAtExport: FreshVerification
        /// Sequences of this record's events in `custodyChain`.
        public var custodyEvents: [UInt64]
    }

    public struct BagFile: Codable, Sendable, Equatable {
        /// Path from the bag root (`data/<recordId>/…`).
        public var path: String
        public var role: FileRole
        public var sha256: ContentID
        public var size: UInt64
        public var sourcePaths: [String]?
    }

    public struct FreshVerification: Codable, Sendable, Equatable {
        /// `done`, or `not-run` (with `reason`).
        public var state: String
        public var reason: String?
        public var report: CaptureReport?
        /// Changes against the report at ingest: integrity, trust and each sink state that
        /// differ (`integrity: intact → tampered`); empty when none.
        public var changes: [String]
        /// The other delivery-file variants in the bag (`variant-<k>/…`), each verified too
        /// (with the record's evidence folder); empty when the record has one variant.
        public var variants: [VariantCheck] = []
    }

    /// The fresh verification of one further variant.
    public struct VariantCheck: Codable, Sendable, Equatable {
        public var path: String
        public var sha256: ContentID?
        public var recordId: ContentID?
        public var integrity: Integrity
        public var trust: Trust?
        public var failureCodes: [String]
    }
}
