import C2PA
import Crypto
import Foundation

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
            r.failure.append(.init(code: "claimSignature.missing", url: url))
            return out
        }
        let cose: COSESign1
        do { cose = try COSESign1(parsing: sigBytes) } catch {
            r.failure.append(.init(code: "claimSignature.mismatch", url: url, explanation: "COSE_Sign1: \(error.code)"))
            return out
        }
        guard let coseAlg = cose.algorithm, let alg = SignatureAlgorithm(coseIdentifier: coseAlg.rawValue) else {
            r.failure.append(.init(code: "algorithm.unsupported", url: url, explanation: "alg \(String(describing: cose.algorithmValue))"))
            return out
        }
        var parsed: [ParsedCertificate] = []
        for der in cose.x5chain {
            guard let c = parsedCertificate(der) else {
                r.failure.append(.init(code: "signingCredential.invalid", url: url, explanation: "x5chain certificate does not parse"))
                return out
            }
            parsed.append(c)
        }
        guard let leafInfo = parsed.first, let key = leafInfo.publicKey else {
            r.failure.append(.init(code: "signingCredential.invalid", url: url, explanation: "no usable signing certificate"))
            return out
        }
        let leaf = leafInfo.certificate
        r.signer = .init(keyFingerprint: leafInfo.keyFingerprint, subject: leafInfo.subject, issuer: leafInfo.issuer, algorithm: alg.rawValue)

        if key.verify(signature: cose.signature, message: cose.toBeSigned(payload: claimBytes), algorithm: alg) {
            r.success.append(.init(code: "claimSignature.validated", url: url, explanation: "claim signature valid"))
            out.validated = true
        } else {
            r.failure.append(.init(code: "claimSignature.mismatch", url: url, explanation: "claim signature does not verify"))
        }

        // The pad in a JPEG: reserved space, zeros by the format (docs/capture-format.md §3.5).
        // It is outside the signature, and the seed's JPEG malleable set (152 framing bytes +
        // 2 swing bytes) does not contain it, so a non-zero byte there is reported (our choice;
        // c2pa-rs does not look). In BMFF the seed lists the pad as malleable: not checked.
        for label in ["pad", "pad2"] where r.container == "jpeg" {
            guard let item = cose.unprotectedHeader[label] else { continue }
            if let pad = item.bytesValue, pad.allSatisfy({ $0 == 0 }) { continue }
            r.failure.append(.init(code: C2PAValidator.padNotZero, url: url,
                                   explanation: "unprotected \(label) is not a byte string of zeros"))
            out.padClean = false
        }

        // Timestamp: degrades only itself.
        let trustedTime = checkTimestamp(cose, claimBytes: claimBytes, url: url, report: &r)

        // Validity at the signing time (the trusted genTime, else now) and the C2PA profile.
        let signingTime = trustedTime ?? Date()
        if leaf.isValid(at: signingTime) {
            r.success.append(.init(code: "claimSignature.insideValidity", url: url))
        } else {
            r.failure.append(.init(code: "claimSignature.outsideValidity", url: url,
                                   explanation: trustedTime == nil ? "at the current time" : "at the timestamp's genTime"))
        }
        let violations = leafInfo.profileViolations
        if !violations.isEmpty {
            r.failure.append(.init(code: "signingCredential.invalid", url: url, explanation: violations.joined(separator: ", ")))
        }
        switch chainValidation(parsed, at: trustedTime) {
        case .trusted:
            if violations.isEmpty {
                r.success.append(.init(code: "signingCredential.trusted", url: url))
                out.trusted = true
            }
        case .untrusted(let reason, let code):
            r.failure.append(.init(code: "signingCredential.untrusted", url: url, explanation: "\(code): \(reason)"))
        }
        return out
    }

    /// Checks the `sigTst2`/`sigTst` token; returns its genTime only when it is trusted.
    func checkTimestamp(_ cose: COSESign1, claimBytes: [UInt8], url: String, report r: inout C2PAReport) -> Date? {
        guard let ts = cose.timestamp else { return nil }
        r.timestamp.header = ts.version.rawValue
        guard let token = ts.tokens.first else {
            r.timestamp.state = "malformed"
            r.failure.append(.init(code: "timeStamp.malformed", url: url, explanation: "no token in \(ts.version.rawValue)"))
            return nil
        }
        if ts.tokens.count > 1 {
            r.informational.append(.init(code: "timeStamp.malformed", url: url, explanation: "only one token is allowed; the first is used"))
        }
        let input = cose.timestampImprintInput(version: ts.version, claim: claimBytes)
        let validation: TimeStampValidation
        do {
            validation = try TimeStampToken(der: token).verify(imprintOf: input, anchors: tsaAnchors) { leaf, others, time in
                tsaChainValidation(leaf, others, at: time)
            }
        } catch {
            validation = .invalid(code: "malformed", reason: error.description)
        }
        switch validation {
        case .valid(let genTime):
            r.timestamp.state = "validated"
            r.timestamp.genTime = genTime
            r.success.append(.init(code: "timeStamp.validated", url: url, explanation: "timestamp message digest matched"))
            r.success.append(.init(code: "timeStamp.trusted", url: url))
            return genTime
        case .untrusted(let genTime, let reason, let code):
            r.timestamp.state = "untrusted"
            r.timestamp.genTime = genTime
            r.success.append(.init(code: "timeStamp.validated", url: url, explanation: "timestamp message digest matched"))
            r.informational.append(.init(code: "timeStamp.untrusted", url: url, explanation: "\(code): \(reason); trusted time lost"))
            return nil
        case .invalid(let code, let reason):
            let malformed = code == "malformed"
            r.timestamp.state = malformed ? "malformed" : "mismatch"
            r.failure.append(.init(code: malformed ? "timeStamp.malformed" : "timeStamp.mismatch", url: url,
                                   explanation: "\(code): \(reason); trusted time lost"))
            return nil
        }
    }
}
