/// A tagged COSE_Sign1 that carries its payload (CAWG identity claims aggregation credentials
/// embed the verifiable credential). C2PA claim signatures never do: those use `COSESign1`,
/// which rejects an embedded payload.
public struct EmbeddedSign1: Sendable, Equatable {
    public let protectedBytes: [UInt8]
    public let protectedHeader: CBOR
    public let unprotectedHeader: CBOR
    /// nil when the payload is CBOR null (detached).
    public let payload: [UInt8]?
    public let signature: [UInt8]

    /// Requires tag 18, four items, a protected header that is empty or a map, an unprotected
    /// map, a bstr or null payload and a bstr signature.
    public init(parsing bytes: some Collection<UInt8>) throws(COSEError) {
        let item: CBOR
        do { item = try CBOR(decoding: bytes) } catch { throw .cbor(error) }
        guard case .tagged(let tag, let body) = item else { throw .notSign1 }
        guard tag == 18 else { throw .wrongTag(tag) }
        guard let parts = body.arrayValue, parts.count == 4 else { throw .notSign1 }
        let (pb, ph) = try COSESign1.headers(parts)
        if parts[2].isNull {
            payload = nil
        } else if let p = parts[2].bytesValue {
            payload = p
        } else {
            throw .notSign1
        }
        guard let sig = parts[3].bytesValue else { throw .badSignature }
        protectedBytes = pb
        protectedHeader = ph
        unprotectedHeader = parts[1]
        signature = sig
    }

    /// Sig_structure over the embedded payload (external_aad empty).
    public func toBeSigned() -> [UInt8] {
        COSESign1.sigStructure(context: "Signature1", protected: protectedBytes, payload: payload ?? [])
    }

    /// The time-stamp header, read as for a claim signature (`sigTst2` before `sigTst`).
    public var timestampHeader: (version: TimestampVersion, tokens: [[UInt8]])? {
        for (key, v) in [("sigTst2", TimestampVersion.v2), ("sigTst", .v1)] {
            guard let c = unprotectedHeader[key] else { continue }
            return (v, c["tstTokens"]?.arrayValue?.compactMap { $0["val"]?.bytesValue } ?? [])
        }
        return nil
    }

    /// The message a time-stamp token's imprint covers (as `COSESign1.timestampImprintInput`,
    /// with the payload in the claim's place).
    public func timestampImprintInput(version: TimestampVersion) -> [UInt8] {
        let data: [UInt8]
        switch version {
        case .v1: data = payload ?? []
        case .v2: data = CBOR.bytes(signature).encoded()
        }
        return COSESign1.sigStructure(context: "CounterSignature", protected: protectedBytes, payload: data)
    }
}
