import Ground

/// A COSE_Sign1 message (RFC 9052 §4.2), as C2PA uses it for the claim signature:
///
///     COSE_Sign1 = #6.18([ protected: bstr .cbor header_map, unprotected: header_map,
///                          payload: nil (detached: the claim bytes), signature: bstr ])
///
/// The protected header bytes are kept exactly as read; the signature is verified over them.
public struct COSESign1: Sendable, Equatable {
    public let protectedBytes: [UInt8]
    public let protectedHeader: CBOR
    public let unprotectedHeader: CBOR
    public let signature: [UInt8]
    /// Whether the message carried the COSE_Sign1 tag (18). c2pa-rs writes it.
    public let tagged: Bool

    /// Parses a COSE_Sign1. An embedded (non-nil) payload is `COSEError.embeddedPayload`.
    public init(parsing bytes: some Collection<UInt8>) throws(COSEError) {
        let item: CBOR
        do { item = try CBOR(decoding: bytes) } catch { throw .cbor(error) }
        var body = item
        var tagged = false
        if case .tagged(let tag, let inner) = item {
            guard tag == 18 else { throw .wrongTag(tag) }
            body = inner
            tagged = true
        }
        guard let parts = body.arrayValue, parts.count == 4 else { throw .notSign1 }
        let (pb, ph) = try Self.headers(parts)
        guard parts[2].isNull else { throw .embeddedPayload }
        guard let sig = parts[3].bytesValue else { throw .badSignature }
        self.protectedBytes = pb
        self.protectedHeader = ph
        self.unprotectedHeader = parts[1]
        self.signature = sig
        self.tagged = tagged
    }

    /// The protected header (its bytes, and the map they hold; empty bytes are an empty map) of
    /// a COSE_Sign1's four parts, after checking the unprotected header is a map.
    static func headers(_ parts: [CBOR]) throws(COSEError) -> (bytes: [UInt8], map: CBOR) {
        guard let pb = parts[0].bytesValue else { throw .badProtectedHeader }
        let ph: CBOR
        if pb.isEmpty {
            ph = .map([])
        } else {
            do { ph = try CBOR(decoding: pb) } catch { throw .badProtectedHeader }
        }
        guard ph.mapValue != nil else { throw .badProtectedHeader }
        guard parts[1].mapValue != nil else { throw .badUnprotectedHeader }
        return (pb, ph)
    }

    public init(protectedBytes: [UInt8], unprotectedHeader: CBOR, signature: [UInt8]) throws(COSEError) {
        let ph: CBOR
        do { ph = try CBOR(decoding: protectedBytes) } catch { throw .badProtectedHeader }
        self.protectedBytes = protectedBytes
        self.protectedHeader = ph
        self.unprotectedHeader = unprotectedHeader
        self.signature = signature
        self.tagged = true
    }

    /// The algorithm from the protected header (label 1).
    public var algorithm: COSEAlgorithm? {
        protectedHeader[intKey: 1]?.intValue.flatMap(COSEAlgorithm.init(rawValue:))
    }

    /// The raw `alg` value, for reporting an unsupported one.
    public var algorithmValue: CBOR? { protectedHeader[intKey: 1] }

    /// Which header carried the certificate chain.
    public enum ChainHeader: String, Sendable { case protected, unprotected }

    /// The certificate chain (leaf first), read exactly as c2pa-rs's `cert_chain_from_sign1` does:
    /// the protected header's first entry labelled `33` or `"x5chain"`; failing that, the
    /// unprotected header's `"x5chain"` entry (text label only: older C2PA writers put the chain
    /// there, e.g. c2pa-rs ≤ 0.16 and Adobe's 2022 tools). A bstr is a one-certificate chain; an
    /// array keeps its bstr elements. No chain, an array without a bstr, or a chain in both
    /// headers is an error (`cose.x5chainMissing`, `cose.x5chainInBothHeaders`).
    public func certificateChain() throws(COSEError) -> (certificates: [[UInt8]], header: ChainHeader) {
        let unprotected = unprotectedHeader.mapValue?.first { $0.key == .text("x5chain") }?.value
        if let p = protectedHeader.mapValue?.first(where: { $0.key == .int(33) || $0.key == .text("x5chain") })?.value {
            // As c2pa-rs: only a readable chain in the unprotected header conflicts.
            if let unprotected, (try? COSESign1.certificates(in: unprotected)) != nil { throw .x5chainInBothHeaders }
            return (try COSESign1.certificates(in: p), .protected)
        }
        guard let unprotected else { throw .x5chainMissing }
        return (try COSESign1.certificates(in: unprotected), .unprotected)
    }

    static func certificates(in value: CBOR) throws(COSEError) -> [[UInt8]] {
        if let one = value.bytesValue { return [one] }
        let many = value.arrayValue?.compactMap(\.bytesValue) ?? []
        guard !many.isEmpty else { throw .x5chainMissing }
        return many
    }

    /// The certificate chain, or `[]` when `certificateChain()` fails.
    public var x5chain: [[UInt8]] { (try? certificateChain().certificates) ?? [] }

    /// Whether the x5chain came from the unprotected header.
    public var x5chainIsUnprotected: Bool { (try? certificateChain().header) == .unprotected }

    /// The time-stamp tokens: `sigTst2` (v2) preferred over `sigTst` (v1), as c2pa-rs reads them.
    public var timestamp: (version: TimestampVersion, tokens: [[UInt8]])? {
        for (key, v) in [("sigTst2", TimestampVersion.v2), ("sigTst", .v1)] {
            guard let c = unprotectedHeader[key] else { continue }
            let tokens = c["tstTokens"]?.arrayValue?.compactMap { $0["val"]?.bytesValue } ?? []
            return (v, tokens)
        }
        return nil
    }

    /// The bytes signed: Sig_structure = ["Signature1", protected, external_aad = h'', payload].
    public func toBeSigned(payload: some Collection<UInt8>) -> [UInt8] {
        COSESign1.sigStructure(context: "Signature1", protected: protectedBytes, payload: Array(payload))
    }

    /// The message an RFC 3161 token's imprint covers (c2pa-rs `cose_countersign_data`):
    /// ["CounterSignature", protected, h'', data] where data is the claim bytes for `sigTst` (v1)
    /// and the CBOR encoding of the signature bstr for `sigTst2` (v2).
    public func timestampImprintInput(version: TimestampVersion, claim: some Collection<UInt8>) -> [UInt8] {
        let data: [UInt8]
        switch version {
        case .v1: data = Array(claim)
        case .v2: data = CBOR.bytes(signature).encoded()
        }
        return COSESign1.sigStructure(context: "CounterSignature", protected: protectedBytes, payload: data)
    }

    static func sigStructure(context: String, protected: [UInt8], payload: [UInt8]) -> [UInt8] {
        CBOR.array([.text(context), .bytes(protected), .bytes([]), .bytes(payload)]).encoded()
    }

    /// The tagged COSE_Sign1 bytes with a nil payload.
    public func encoded() -> [UInt8] {
        let arr = CBOR.array([.bytes(protectedBytes), unprotectedHeader, .null, .bytes(signature)])
        return (tagged ? CBOR.tagged(18, arr) : arr).encoded()
    }
}

public enum TimestampVersion: String, Sendable, Codable { case v1 = "sigTst", v2 = "sigTst2" }

/// COSE algorithm identifiers C2PA allows.
public enum COSEAlgorithm: Int, Sendable, CaseIterable, Codable {
    case es256 = -7, es384 = -35, es512 = -36, ps256 = -37, ps384 = -38, ps512 = -39, ed25519 = -8

    public var name: String {
        switch self {
        case .es256: "es256"
        case .es384: "es384"
        case .es512: "es512"
        case .ps256: "ps256"
        case .ps384: "ps384"
        case .ps512: "ps512"
        case .ed25519: "ed25519"
        }
    }
}

/// Why a COSE_Sign1 could not be read or built. `code` is stable.
public enum COSEError: Error, Equatable, Sendable {
    case cbor(CBORError)
    case wrongTag(UInt64)
    case notSign1
    case badProtectedHeader
    case badUnprotectedHeader
    case embeddedPayload
    case badSignature
    case padTooSmall(needed: Int, reserved: Int)
    case signerFailed(String)
    case x5chainMissing
    case x5chainInBothHeaders

    public var code: String {
        switch self {
        case .cbor(let e): e.code
        case .wrongTag: StatusCode.coseWrongTag
        case .notSign1: StatusCode.coseNotSign1
        case .badProtectedHeader: StatusCode.coseBadProtectedHeader
        case .badUnprotectedHeader: StatusCode.coseBadUnprotectedHeader
        case .embeddedPayload: StatusCode.coseEmbeddedPayload
        case .badSignature: StatusCode.coseBadSignature
        case .padTooSmall: StatusCode.cosePadTooSmall
        case .signerFailed: StatusCode.coseSignerFailed
        case .x5chainMissing: StatusCode.coseX5chainMissing
        case .x5chainInBothHeaders: StatusCode.coseX5chainInBothHeaders
        }
    }
}
