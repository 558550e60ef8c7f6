import Query

/// What the record tables hold for one record: the `records` row (ID, JSON body, the values
/// queries filter on), its `record_sidecars` rows and its `record_variants` rows. The thin
/// Swift side of a record: `IndexRow(_:)` (IndexRow+Query.swift) makes one from an
/// `IndexedRecord`.
public struct IndexRow: Sendable, Equatable {
    /// The record ID's 32 bytes.
    public var recordId: [UInt8]
    /// The record's JSON (the `IndexedRecord` encoding, as LMDB's `idx.records` holds it after
    /// its version byte).
    public var body: [UInt8]
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

    public init(recordId: [UInt8], body: [UInt8], kind: String, integrity: String, trust: String?,
                keyFingerprint: String?, captureTime: String?, ingestTime: String,
                sidecars: [String: String], variants: [[UInt8]]) {
        self.recordId = recordId
        self.body = body
        self.kind = kind
        self.integrity = integrity
        self.trust = trust
        self.keyFingerprint = keyFingerprint
        self.captureTime = captureTime
        self.ingestTime = ingestTime
        self.sidecars = sidecars
        self.variants = variants
    }

    /// The checks LMDB's index makes before it writes (the same `QueryError`s): IDs of 32
    /// bytes; values that are not empty and hold no NUL; a fingerprint of lowercase hex.
    func validate() throws {
        guard recordId.count == 32 else { throw QueryError.invalidRecordId(Hex.encode(recordId)) }
        for v in variants where v.count != 32 { throw QueryError.invalidField(name: "variants.blobId", value: Hex.encode(v)) }
        func check(_ name: String, _ value: String) throws {
            guard !value.isEmpty, !value.utf8.contains(0) else { throw QueryError.invalidField(name: name, value: value) }
        }
        if let fp = keyFingerprint, fp.isEmpty || !fp.utf8.allSatisfy(Hex.isLowercaseDigit) {
            throw QueryError.invalidField(name: "keyFingerprint", value: fp)
        }
        if let t = captureTime { try check("captureTime", t) }
        try check("integrity", integrity)
        if let t = trust { try check("trust", t) }
        try check("kind", kind)
        try check("ingestTime", ingestTime)
        for (sink, state) in sidecars {
            try check("sidecars.sink", sink)
            try check("sidecars.\(sink)", state)
        }
    }
}

/// Lowercase hex of bytes, and back.
enum Hex {
    static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }

    /// Bytes of lowercase hex of even length; nil otherwise.
    static func decode(_ hex: String) -> [UInt8]? {
        let u = Array(hex.utf8)
        guard u.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(u.count / 2)
        var i = 0
        while i < u.count {
            guard let hi = value(u[i]), let lo = value(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    static func isLowercaseDigit(_ c: UInt8) -> Bool { value(c) != nil }
}
