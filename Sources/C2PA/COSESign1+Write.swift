extension COSESign1 {
    /// Where `sign` puts the certificate chain: `protected` (label 33, what c2pa-rs writes
    /// today), or a form older writers used, for tests that reproduce them.
    public enum ChainPlacement: Sendable {
        case protected
        /// Protected header, text label `"x5chain"`.
        case protectedText
        /// Unprotected header, text label `"x5chain"` (c2pa-rs ≤ 0.16, Adobe tools of 2022).
        case unprotectedText
        /// Unprotected header, label 33 (which c2pa-rs does not read there).
        case unprotectedLabel33
        /// Protected label 33 and unprotected `"x5chain"`.
        case both
        /// No chain at all.
        case none
    }

    /// Signs `payload` (the claim bytes, detached) and returns the message.
    ///
    /// - `signer` gets the Sig_structure bytes and returns the raw signature (r‖s for ECDSA).
    /// - `timestamper`, when given, gets the `sigTst2` imprint input (computed over the fresh
    ///   signature) and returns an RFC 3161 TimeStampToken (DER), stored as `sigTst2`.
    /// - `chainPlacement` (default protected label 33) and `timestampHeader` (default `sigTst2`,
    ///   imprint over the signature; `sigTst` is the v1 header, imprint over the claim) select the
    ///   older forms for tests.
    /// - `reservedSize`, when given, pads the unprotected header (`pad`, then `pad2` when one
    ///   bstr cannot hit the size exactly) so the encoded message is exactly that long; a message
    ///   already larger is `padTooSmall`.
    public static func sign(payload: some Collection<UInt8>, algorithm: COSEAlgorithm, certificateChain: [[UInt8]],
                            reservedSize: Int? = nil,
                            chainPlacement: ChainPlacement = .protected,
                            timestampHeader: TimestampVersion = .v2,
                            signer: ([UInt8]) throws -> [UInt8],
                            timestamper: (([UInt8]) throws -> [UInt8])? = nil) throws(COSEError) -> COSESign1 {
        var ph: [CBORPair] = [CBORPair(.int(1), .int(algorithm.rawValue))]
        let chain: CBOR = certificateChain.count == 1 ? .bytes(certificateChain[0]) : .array(certificateChain.map(CBOR.bytes))
        var unprotected: [CBORPair] = []
        switch chainPlacement {
        case .protected: ph.append(CBORPair(.int(33), chain))
        case .protectedText: ph.append(CBORPair(.text("x5chain"), chain))
        case .unprotectedText: unprotected.append(CBORPair(.text("x5chain"), chain))
        case .unprotectedLabel33: unprotected.append(CBORPair(.int(33), chain))
        case .both:
            ph.append(CBORPair(.int(33), chain))
            unprotected.append(CBORPair(.text("x5chain"), chain))
        case .none: break
        }
        let protectedBytes = CBOR.map(ph).encoded()
        let claim = Array(payload)
        let tbs = sigStructure(context: "Signature1", protected: protectedBytes, payload: claim)
        let sig: [UInt8]
        do { sig = try signer(tbs) } catch { throw .signerFailed("\(error)") }
        if let timestamper {
            let probe = try COSESign1(protectedBytes: protectedBytes, unprotectedHeader: .map([]), signature: sig)
            let token: [UInt8]
            do { token = try timestamper(probe.timestampImprintInput(version: timestampHeader, claim: claim)) }
            catch { throw .signerFailed("timestamp: \(error)") }
            unprotected.append(CBORPair(.text(timestampHeader.rawValue),
                                        .textMap([("tstTokens", .array([.textMap([("val", .bytes(token))])]))])))
        }
        var msg = try COSESign1(protectedBytes: protectedBytes, unprotectedHeader: .map(unprotected), signature: sig)
        if let reservedSize { msg = try msg.padded(to: reservedSize) }
        return msg
    }

    /// The same message with `pad` (and if needed `pad2`) zero bstrs in the unprotected header so
    /// that `encoded().count == size`.
    public func padded(to size: Int) throws(COSEError) -> COSESign1 {
        let base = unprotectedHeader.mapValue?.filter { $0.key != .text("pad") && $0.key != .text("pad2") } ?? []
        func build(_ pads: [Int]) throws(COSEError) -> COSESign1 {
            var u = base
            for (i, n) in pads.enumerated() {
                u.append(CBORPair(.text(i == 0 ? "pad" : "pad2"), .bytes([UInt8](repeating: 0, count: n))))
            }
            return try COSESign1(protectedBytes: protectedBytes, unprotectedHeader: .map(u), signature: signature)
        }
        let bare = try build([0]).encoded().count
        guard bare <= size else { throw .padTooSmall(needed: bare, reserved: size) }
        // The bstr header grows at 24, 256 and 65536 bytes: try a few lengths around the gap.
        let gap = size - bare
        for n in stride(from: gap, through: max(0, gap - 9), by: -1) {
            let m = try build([n])
            if m.encoded().count == size { return m }
        }
        for n in stride(from: gap, through: max(0, gap - 20), by: -1) {
            for k in 0...10 {
                let m = try build([n, k])
                if m.encoded().count == size { return m }
            }
        }
        throw .padTooSmall(needed: bare, reserved: size)
    }
}
