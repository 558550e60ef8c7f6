import Crypto
import Foundation
import Ground
import Query

/// What the record tables hold for one record: the `records` row (ID, JSON body, the values
/// queries filter on), its `record_sidecars` rows and its `record_variants` rows. The thin
/// Swift side of a record: `IndexRow(_:)` (IndexRow+Query.swift) makes one from an
/// `IndexedRecord`.
public struct IndexRow: Sendable, Equatable {
    /// The record ID's 32 bytes.
    public var recordId: [UInt8]
    /// The record's stored body, `RecordBody` format 2 — `0x02 ‖ SHA-256(reportId ‖ json) ‖
    /// reportId ‖ json`, the JSON without the report — byte for byte LMDB's `idx.records` value
    /// (migration 6; docs/query.md).
    public var body: [UInt8]
    /// The report the body names (bytes 33..<65 of `body` are its SHA-256), stored once in
    /// `record_reports`.
    public var report: [UInt8]
    public var kind: String
    public var integrity: String
    public var trust: String?
    /// Lowercase hex.
    public var keyFingerprint: String?
    /// At its finest known rung: a prefix of `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public var captureTime: String?
    public var ingestTime: String
    /// Sink → state.
    public var sidecars: [String: String]
    /// Delivery-file blob IDs (32 bytes each).
    public var variants: [[UInt8]]
    /// The record's analyses state (`pending`, `done`, `absent`), or nil (migration 8).
    public var analyses: String?

    public init(recordId: [UInt8], body: [UInt8], report: [UInt8], kind: String, integrity: String, trust: String?,
                keyFingerprint: String?, captureTime: String?, ingestTime: String,
                sidecars: [String: String], variants: [[UInt8]], analyses: String? = nil) {
        self.recordId = recordId
        self.body = body
        self.report = report
        self.kind = kind
        self.integrity = integrity
        self.trust = trust
        self.keyFingerprint = keyFingerprint
        self.captureTime = captureTime
        self.ingestTime = ingestTime
        self.sidecars = sidecars
        self.variants = variants
        self.analyses = analyses
    }

    /// The SHA-256 of the report, as the body names it.
    var reportId: ArraySlice<UInt8> { body.count >= RecordBody.headerCount ? body[33..<65] : [] }

    /// The checks LMDB's index makes before it writes (the same `QueryError`s): IDs of 32
    /// bytes; values that are not empty and hold no NUL; a fingerprint of lowercase hex.
    func validate() throws {
        guard recordId.count == 32 else { throw QueryError.invalidRecordId(hexText(recordId)) }
        guard body.count > RecordBody.headerCount, body[0] == RecordBody.version,
              ContentID.sha256(of: report).bytes.elementsEqual(reportId) else {
            throw QueryError.invalidField(name: "body", value: "not a format-2 body naming its report")
        }
        for v in variants where v.count != 32 { throw QueryError.invalidField(name: "variants.blobId", value: hexText(v)) }
        func check(_ name: String, _ value: String) throws {
            guard !value.isEmpty, !value.utf8.contains(0) else { throw QueryError.invalidField(name: name, value: value) }
        }
        if let fp = keyFingerprint, fp.isEmpty || !ContentID.isLowercaseHex(fp) {
            throw QueryError.invalidField(name: "keyFingerprint", value: fp)
        }
        if let t = captureTime { try check("captureTime", t) }
        try check("integrity", integrity)
        if let t = trust { try check("trust", t) }
        if let a = analyses { try check("analyses", a) }
        try check("kind", kind)
        try check("ingestTime", ingestTime)
        for (sink, state) in sidecars {
            try check("sidecars.sink", sink)
            try check("sidecars.\(sink)", state)
        }
    }
}

/// Lowercase hex of bytes that are not an ID (for an error's text).
func hexText(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
