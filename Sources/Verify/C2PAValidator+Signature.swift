import C2PA
import Crypto
import Foundation
import Ground

extension C2PAValidator {
    struct SignatureOutcome {
        var validated = false
        var trusted = false
        /// The unprotected `pad`/`pad2` byte strings hold only zeros (or are absent).
        var padClean = true
    }

    /// COSE_Sign1 over the claim with the leaf key; the timestamp; the signer's chain and profile.
    func verifySignature(manifest: Manifest, claimBytes: [UInt8], url: String, report r: inout C2PAReport) -> SignatureOutcome {
        var out = SignatureOutcome()
        guard let sigBytes = manifest.signatureBytes else {
            r.failure.append(.init(code: StatusCode.claimSignatureMissing, url: url))
            return out
        }
        // c2pa-rs (claim.rs `verify_claim`) cannot go on without a COSE_Sign1 and a leaf
        // certificate (`parse_cose_sign1(..)?`, `get_signing_cert_serial_num(..)?`): its Reader
        // fails, so the manifest is unreadable (`malformed`), not tampered.
        let cose: COSESign1
        do { cose = try COSESign1(parsing: sigBytes) } catch {
            r.failure.append(.init(code: StatusCode.claimSignatureMismatch, url: url, explanation: "COSE_Sign1: \(error.code)"))
            r.signatureUnusable = r.signatureUnusable ?? "COSE_Sign1 does not parse: \(error.code)"
            return out
        }
        // The chain where c2pa-rs looks for it (COSESign1.certificateChain: protected 33 or
        // "x5chain", else the unprotected "x5chain" of older writers); its leaf must parse.
        let chainDER: [[UInt8]]
        do { chainDER = try cose.certificateChain().certificates } catch {
            r.failure.append(.init(code: StatusCode.signingCredentialInvalid, url: url, explanation: "no usable signing certificate: \(error.code)"))
            r.signatureUnusable = r.signatureUnusable ?? "no signing certificate chain: \(error.code)"
            return out
        }
        guard let leafDER = chainDER.first, parsedCertificate(leafDER) != nil else {
            r.failure.append(.init(code: StatusCode.signingCredentialInvalid, url: url, explanation: "the signing certificate does not parse"))
            r.signatureUnusable = r.signatureUnusable ?? "the signing certificate does not parse"
            return out
        }
        guard let coseAlg = cose.algorithm, let alg = SignatureAlgorithm(coseIdentifier: coseAlg.rawValue) else {
            r.failure.append(.init(code: StatusCode.algorithmUnsupported, url: url, explanation: "alg \(String(describing: cose.algorithmValue))"))
            return out
        }
        // Another certificate that does not parse leaves the signature checkable; the chain is
        // then untrusted (c2pa-rs reads those only in its trust check).
        let parsed = chainDER.compactMap(parsedCertificate)
        let chainComplete = parsed.count == chainDER.count
        guard let leafInfo = parsed.first, let key = leafInfo.publicKey else {
            r.failure.append(.init(code: StatusCode.signingCredentialInvalid, url: url, explanation: "no usable signing certificate"))
            return out
        }
        let leaf = leafInfo.certificate
        r.signer = .init(keyFingerprint: leafInfo.keyFingerprint, subject: leafInfo.subject, issuer: leafInfo.issuer, algorithm: alg.rawValue)

        if key.verify(signature: cose.signature, message: cose.toBeSigned(payload: claimBytes), algorithm: alg) {
            r.success.append(.init(code: StatusCode.claimSignatureValidated, url: url, explanation: "claim signature valid"))
            out.validated = true
        } else {
            r.failure.append(.init(code: StatusCode.claimSignatureMismatch, url: url, explanation: "claim signature does not verify"))
        }

        // The pad in a JPEG: reserved space, zeros by the format (docs/capture-format.md §3.5).
        // It is outside the signature, and the seed's JPEG malleable set (152 framing bytes +
        // 2 swing bytes) does not contain it, so a non-zero byte there is a failure (our choice;
        // c2pa-rs does not look). In BMFF the seed lists the pad as malleable: not checked. The
        // other formats (PNG, RIFF, TIFF, GIF, SVG, JPEG XL, ID3, PDF) have no seed set; there we
        // agree with c2pa-rs (cose_validator.rs never reads `pad`/`pad2`: the file stays
        // valid) and name the finding, informational (docs/verify.md, Malleability).
        for label in ["pad", "pad2"] where r.container != nil && r.container != ContainerFormat.bmff.rawValue {
            guard let item = cose.unprotectedHeader[label] else { continue }
            if let pad = item.bytesValue, pad.allSatisfy({ $0 == 0 }) { continue }
            let finding = C2PAReport.Status(code: C2PAValidator.padNotZero, url: url,
                                            explanation: "unprotected \(label) is not a byte string of zeros")
            if r.container == ContainerFormat.jpeg.rawValue {
                r.failure.append(finding)
                out.padClean = false
            } else {
                r.informational.append(finding)
            }
        }

        // Timestamp: degrades only itself. Its time is the signing time for the certificate
        // checks when the token is trusted, or, for a v1 claim, when only its imprint and CMS
        // signature hold (c2pa-rs claim.rs `verify_claim` turns TSA trust off for v1 claims).
        let signingTimeFromToken = checkTimestamp(cose, claimBytes: claimBytes, url: url, report: &r)

        // Validity at the signing time (the timestamp's, else now) and the C2PA profile; an
        // expired (or not yet valid) leaf is `signingCredential.expired`, as c2pa-rs names it
        // (certificate_profile.rs): a credential finding, not an integrity one.
        let signingTime = signingTimeFromToken ?? Date()
        let validAtSigningTime = leaf.isValid(at: signingTime)
        if validAtSigningTime {
            r.success.append(.init(code: StatusCode.claimSignatureInsideValidity, url: url))
        } else {
            r.failure.append(.init(code: StatusCode.signingCredentialExpired, url: url,
                                   explanation: signingTimeFromToken == nil ? "at the current time" : "at the timestamp's time"))
        }
        let violations = leafInfo.profileViolations
        if !violations.isEmpty {
            r.failure.append(.init(code: StatusCode.signingCredentialInvalid, url: url, explanation: violations.joined(separator: ", ")))
        }
        // An expired leaf is also untrusted (c2pa-rs 0.91.3 reports both, even where its chain
        // check runs without a time); an incomplete chain cannot be trusted.
        let verdict: ChainValidation
        if !validAtSigningTime {
            verdict = .untrusted(reason: "the signing certificate is not valid at the signing time", code: "expired")
        } else if !chainComplete {
            verdict = .untrusted(reason: "an x5chain certificate does not parse", code: "badCertificate")
        } else {
            verdict = chainValidation(parsed, at: signingTimeFromToken)
        }
        switch verdict {
        case .trusted:
            if violations.isEmpty {
                r.success.append(.init(code: StatusCode.signingCredentialTrusted, url: url))
                out.trusted = true
            }
        case .untrusted(let reason, let code):
            r.failure.append(.init(code: StatusCode.signingCredentialUntrusted, url: url, explanation: "\(code): \(reason)"))
        }
        return out
    }

    /// Checks the `sigTst2`/`sigTst` token. Every `timeStamp.*` finding is informational, as in
    /// c2pa-rs (time_stamp/verify.rs): a bad token loses the time, never the integrity. Returns
    /// the time to validate the signer's certificate at: a trusted token's, or, in a v1 claim
    /// (`r.claimVersion == 1`), that of a token whose imprint and signature hold even though its
    /// TSA is not trusted (c2pa-rs does not check TSA trust for v1 claims: "legacy timestamp").
    /// That time is the token's signed `signingTime` attribute when it has one, else genTime
    /// (`TimeStampToken.validationTime`, as c2pa-rs); the report keeps genTime.
    func checkTimestamp(_ cose: COSESign1, claimBytes: [UInt8], url: String, report r: inout C2PAReport) -> Date? {
        guard let ts = cose.timestamp else { return nil }
        r.timestamp.header = ts.version.rawValue
        guard let token = ts.tokens.first else {
            r.timestamp.state = "malformed"
            r.informational.append(.init(code: StatusCode.timeStampMalformed, url: url, explanation: "no token in \(ts.version.rawValue)"))
            return nil
        }
        if ts.tokens.count > 1 {
            // c2pa-rs ignores a sigTst holding more than one token (parse_and_validate_sigtst).
            r.timestamp.state = "malformed"
            r.informational.append(.init(code: StatusCode.timeStampMalformed, url: url, explanation: "only one token is allowed; none is used"))
            return nil
        }
        let input = cose.timestampImprintInput(version: ts.version, claim: claimBytes)
        let validation: TimeStampValidation
        var tsaValidAtTokenTime = true
        var vouched = Date()
        do {
            let parsed = try TimeStampToken(der: token)
            vouched = parsed.validationTime
            if let signer = parsed.signerCertificate { tsaValidAtTokenTime = signer.isValid(at: vouched) }
            validation = parsed.verify(imprintOf: input, anchors: tsaAnchors) { leaf, others, time in
                tsaChainValidation(leaf, others, at: time)
            }
        } catch {
            validation = .invalid(code: "malformed", reason: error.description)
        }
        switch validation {
        case .valid(let genTime):
            r.timestamp.state = "validated"
            r.timestamp.genTime = genTime
            r.success.append(.init(code: StatusCode.timeStampValidated, url: url, explanation: "timestamp message digest matched"))
            r.success.append(.init(code: StatusCode.timeStampTrusted, url: url))
            return vouched
        case .untrusted(let genTime, let reason, let code):
            r.timestamp.state = "untrusted"
            r.timestamp.genTime = genTime
            r.success.append(.init(code: StatusCode.timeStampValidated, url: url, explanation: "timestamp message digest matched"))
            let legacy = r.claimVersion == 1 && tsaValidAtTokenTime
            r.informational.append(.init(code: StatusCode.timeStampUntrusted, url: url, explanation: "\(code): \(reason); " + (legacy
                ? "v1 claim: the token's time is still the signing time for the certificate checks, as c2pa-rs does"
                : "trusted time lost")))
            return legacy ? vouched : nil
        case .invalid(let code, let reason):
            let malformed = code == "malformed"
            r.timestamp.state = malformed ? "malformed" : "mismatch"
            r.informational.append(.init(code: malformed ? StatusCode.timeStampMalformed : StatusCode.timeStampMismatch, url: url,
                                         explanation: "\(code): \(reason); trusted time lost"))
            return nil
        }
    }
}
