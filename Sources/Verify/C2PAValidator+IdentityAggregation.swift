import C2PA
import Crypto
import Foundation
import Ground

/// `cawg.identity_claims_aggregation` (ICA): the signature is a tagged COSE_Sign1 whose embedded
/// payload is a W3C verifiable credential (JSON) issued by an identity claims aggregator and
/// signed with EdDSA by the issuer DID's key. Checked in c2pa-rs 0.91's order
/// (claim_aggregation/ica_signature_verifier.rs), with its codes. DIDs are never resolved over
/// the network: `did:jwk` carries its key (base64url with canonical padding, as c2pa-rs's
/// `BASE64_URL_SAFE` engine requires) and is checked; `did:web` is `cawg.ica.did_unavailable`,
/// which is what c2pa-rs reports when it cannot fetch the DID document.
extension C2PAValidator {
    func validateAggregatedIdentity(_ ia: IdentityAssertion, url: String, report r: inout C2PAReport) {
        func fail(_ code: String, _ why: String) { r.failure.append(.init(code: code, url: url, explanation: why)) }
        guard let sign1 = try? EmbeddedSign1(parsing: ia.signature) else {
            return fail(StatusCode.cawgIcaInvalidCoseSign1, "Invalid COSE_Sign1 data structure")
        }
        guard sign1.protectedHeader[intKey: 1] == .int(COSEAlgorithm.ed25519.rawValue) else {
            return fail(StatusCode.cawgIcaInvalidAlg, "COSE_Sign1 algorithm missing or not EdDSA")
        }
        var ok = true
        if sign1.protectedHeader[intKey: 3]?.textValue != "application/vc" {
            fail(StatusCode.cawgIcaInvalidContentType, "COSE_Sign1 content type is not application/vc")
            ok = false
        }
        guard let payload = sign1.payload else {
            return fail(StatusCode.cawgIcaInvalidVerifiableCredential, "Missing COSE_Sign1 payload")
        }
        let vc: AggregatedCredential
        do { vc = try AggregatedCredential(json: payload) } catch {
            return fail(StatusCode.cawgIcaInvalidVerifiableCredential, "Invalid verifiable credential: \(error.reason)")
        }

        switch issuerKey(vc.issuer) {
        case .failure(let e):
            ok = false
            fail(e.code, e.reason)
        case .success(let key):
            if key.verify(signature: sign1.signature, message: sign1.toBeSigned(), algorithm: .ed25519) {
                // No trusted ICA issuers are configured (c2pa-rs's default): informational only.
                ok = false
                r.informational.append(.init(code: StatusCode.cawgIcaUntrustedIssuer, url: url, explanation: "ICA issuer is not a trusted issuer"))
            } else {
                ok = false
                fail(StatusCode.cawgIcaSignatureMismatch, "Signature does not match credential")
            }
        }

        // The credential's own time stamp, over its payload; TSA trust is not checked (c2pa-rs
        // uses a pass-through policy here).
        var stampTime: Date?
        if let header = sign1.timestampHeader {
            let validation: TimeStampValidation
            if header.tokens.count == 1, let token = try? TimeStampToken(der: header.tokens[0]) {
                validation = token.verify(imprintOf: sign1.timestampImprintInput(version: header.version),
                                          anchors: tsaAnchors) { leaf, _, _ in .trusted(chain: [leaf]) }
            } else {
                validation = .invalid(code: "malformed", reason: "not exactly one token that parses")
            }
            switch validation {
            case .valid(let genTime), .untrusted(let genTime, _, _):
                stampTime = genTime
                r.success.append(.init(code: StatusCode.cawgIcaTimeStampValidated, url: url, explanation: "Time stamp validated"))
            case .invalid(let code, let reason):
                ok = false
                fail(StatusCode.cawgIcaTimeStampInvalid, "\(code): \(reason)")
            }
        }

        let now = Date()
        if let from = vc.validFrom {
            if now < from || (stampTime.map { $0 < from } ?? false) {
                ok = false
                fail(StatusCode.cawgIcaValidFromInvalid, now < from ? "validFrom is after the current time" : "validFrom is after the time stamp")
            }
        } else {
            ok = false
            fail(StatusCode.cawgIcaValidFromMissing, "the credential has no validFrom")
        }
        if let until = vc.validUntil, now > until || (stampTime.map { $0 > until } ?? false) {
            ok = false
            fail(StatusCode.cawgIcaValidUntilInvalid, now > until ? "validUntil is before the current time" : "validUntil is before the time stamp")
        }

        // c2paAsset must equal the signer payload (an alg the signer payload omits is taken
        // from the credential's entry at the same index).
        var expected = ia.referencedAssertions
        for i in expected.indices where i < vc.asset.referencedAssertions.count && expected[i].alg == nil {
            expected[i].alg = vc.asset.referencedAssertions[i].alg
        }
        expected = Array(expected.prefix(vc.asset.referencedAssertions.count))
        if expected != vc.asset.referencedAssertions || ia.sigType != vc.asset.sigType || ia.roles != vc.asset.roles {
            ok = false
            fail(StatusCode.cawgIcaSignerPayloadMismatch, "c2paAsset does not match signer_payload")
        }
        if ok {
            r.success.append(.init(code: StatusCode.cawgIcaCredentialValid, url: url, explanation: "ICA credential is valid"))
        }
    }

    struct IssuerKeyError: Error {
        var code: String
        var reason: String
    }

    /// The issuer's Ed25519 key from its DID: `did:jwk` offline; `did:web` is never fetched.
    private func issuerKey(_ issuer: String) -> Result<PublicKey, IssuerKeyError> {
        guard let did = DecentralizedIdentifier(issuer) else {
            return .failure(.init(code: StatusCode.cawgIcaInvalidIssuer, reason: "not a DID: \(issuer)"))
        }
        switch did.method {
        case "jwk":
            guard let json = Base64URL.decode(did.methodSpecificID),
                  let jwk = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
                return .failure(.init(code: StatusCode.cawgIcaInvalidDidDocument, reason: "did:jwk does not decode to a JWK"))
            }
            guard jwk["kty"] as? String == "OKP", jwk["crv"] as? String == "Ed25519",
                  let x = (jwk["x"] as? String).flatMap(Base64URL.decodeUnpadded), x.count == 32,
                  let key = try? PublicKey(spkiDER: Self.ed25519SPKIPrefix + x) else {
                return .failure(.init(code: StatusCode.cawgIcaInvalidDidDocument, reason: "the JWK is not an Ed25519 OKP key"))
            }
            return .success(key)
        case "web":
            return .failure(.init(code: StatusCode.cawgIcaDidUnavailable, reason: "did:web is not resolved (no network access by design): \(did.primary)"))
        default:
            return .failure(.init(code: StatusCode.cawgIcaInvalidIssuer, reason: "unsupported DID method \(did.method)"))
        }
    }

    /// SubjectPublicKeyInfo DER header of an Ed25519 key (RFC 8410), before the 32 key bytes.
    static let ed25519SPKIPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]
}
