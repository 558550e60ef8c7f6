import C2PA
import Crypto
import Foundation
import Ground

/// CAWG identity assertions (`cawg.identity`, `cawg.identity__N`), validated as c2pa-rs 0.91
/// does after the C2PA checks (identity/identity_assertion/assertion.rs `validate_partial_claim`,
/// signer_payload.rs, x509 status remapping; docs/c2pa.md, CAWG identity). Only the active
/// manifest's assertions are checked. Every code is c2pa-rs's.
extension C2PAValidator {
    static let x509SigType = "cawg.x509.cose"
    static let icaSigType = "cawg.identity_claims_aggregation"

    /// Checks every identity assertion of `manifest`. Returns false when one fails in a way
    /// c2pa-rs counts against the manifest (one that does not deserialize, or a `cawg.ica.*`
    /// failure, makes its state `Invalid`; `cawg.identity.*` and `cawg.x509.*` failures leave
    /// it `Valid`).
    func checkIdentityAssertions(claim: Claim, manifest: Manifest, report r: inout C2PAReport) -> Bool {
        var ok = true
        for box in manifest.assertions {
            guard let label = box.label, IdentityAssertion.isIdentityLabel(label) else { continue }
            let url = JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.assertions/" + label)
            let identity: IdentityAssertion
            do throws(IdentityAssertionError) {
                guard let content = box.contentBoxes(ofType: "cbor").first else { throw IdentityAssertionError.missingField("cbor box") }
                identity = try IdentityAssertion(parsing: content.payload)
            } catch {
                // c2pa-rs decodes identity assertions while loading the manifest (manifest.rs,
                // `decode_identity_assertions`, on by default): one that does not deserialize
                // fails the whole manifest load, reported on the manifest as below, state Invalid.
                r.failure.append(.init(code: StatusCode.assertionRequiredMissing, url: Self.manifestURI(manifest.label),
                                       explanation: "Failed to load manifest: \(label) does not deserialize (\(error.code))"))
                ok = false
                continue
            }
            let before = r.failure.count
            validateIdentity(identity, claim: claim, url: url, report: &r)
            if r.failure[before...].contains(where: { $0.code.hasPrefix("cawg.ica.") }) { ok = false }
        }
        return ok
    }

    private func validateIdentity(_ ia: IdentityAssertion, claim: Claim, url: String, report r: inout C2PAReport) {
        // Pads: pad1 first; pad2 only when pad1 is clean (one finding at most).
        if !ia.pad1.allSatisfy({ $0 == 0 }) || !(ia.pad2 ?? []).allSatisfy({ $0 == 0 }) {
            r.failure.append(.init(code: StatusCode.cawgIdentityPadInvalid, url: url, explanation: "invalid value in pad fields"))
        }
        // Each referenced assertion must be one the claim makes, with the same hash (c2pa-rs
        // 0.91.3 reports either failure as `cawg.identity.assertion.mismatch` and goes on).
        for ref in ia.referencedAssertions {
            let made = claim.assertionReferences.first { $0.url == ref.url || Self.relativeAssertionURL($0.url) == ref.url }
            if made == nil || made?.hash != ref.hash {
                r.failure.append(.init(code: StatusCode.cawgIdentityAssertionMismatch, url: url,
                                       explanation: made == nil ? "referenced assertion not in claim: \(ref.url)"
                                           : "referenced assertion hash differs from the claim's: \(ref.url)"))
            }
        }
        let labels = ia.referencedAssertions.map(\.url)
        let bindsHard = labels.contains { url in
            guard let slash = url.lastIndex(of: "/") else { return false }
            return url[url.index(after: slash)...].hasPrefix("c2pa.hash.")
        }
        if !bindsHard {
            r.failure.append(.init(code: StatusCode.cawgIdentityHardBindingMissing, url: url, explanation: "no hard binding assertion"))
        }
        var seen = Set<String>()
        for label in labels where !seen.insert(label).inserted {
            r.failure.append(.init(code: StatusCode.cawgIdentityAssertionDuplicate, url: url, explanation: "multiple references to \(label)"))
        }
        switch ia.sigType {
        case Self.x509SigType: validateX509Identity(ia, url: url, report: &r)
        case Self.icaSigType: validateAggregatedIdentity(ia, url: url, report: &r)
        default:
            r.failure.append(.init(code: StatusCode.cawgIdentitySigTypeUnknown, url: url, explanation: "unsupported signature type \(ia.sigType)"))
        }
    }

    /// A claim's assertion URL without an absolute `/c2pa/<manifest>/` part (c2pa-rs strips the
    /// first such segment before comparing).
    static func relativeAssertionURL(_ url: String) -> String {
        guard let start = url.range(of: "/c2pa/") else { return url }
        guard let end = url[start.upperBound...].firstIndex(of: "/"), end > start.upperBound else { return url }
        return String(url[..<start.lowerBound] + url[url.index(after: end)...])
    }

    /// `cawg.x509.cose`: a COSE_Sign1 with a detached payload (the signer payload's CBOR) and an
    /// x5chain; the C2PA signature checks with c2pa-rs's CAWG codes. Trust: the signer anchors
    /// (c2pa-rs keeps a separate `cawg_trust` list, empty unless configured).
    private func validateX509Identity(_ ia: IdentityAssertion, url: String, report r: inout C2PAReport) {
        let cose: COSESign1
        let chainDER: [[UInt8]]
        do {
            cose = try COSESign1(parsing: ia.signature)
            chainDER = try cose.certificateChain().certificates
        } catch {
            r.failure.append(.init(code: StatusCode.cawgX509SignatureMismatch, url: url, explanation: "COSE_Sign1: \(error.code)"))
            return
        }
        guard let coseAlg = cose.algorithm, let alg = SignatureAlgorithm(coseIdentifier: coseAlg.rawValue) else {
            r.failure.append(.init(code: StatusCode.cawgX509AlgorithmUnsupported, url: url, explanation: "alg \(String(describing: cose.algorithmValue))"))
            return
        }
        let parsed = chainDER.compactMap(parsedCertificate)
        guard parsed.count == chainDER.count, let leafInfo = parsed.first, let key = leafInfo.publicKey else {
            r.failure.append(.init(code: StatusCode.cawgX509CredentialInvalid, url: url, explanation: "an x5chain certificate does not parse"))
            return
        }
        let now = Date()
        let valid = leafInfo.certificate.isValid(at: now)
        if !valid {
            r.failure.append(.init(code: StatusCode.cawgX509SignatureOutsideValidity, url: url, explanation: "at the current time"))
        }
        if !leafInfo.profileViolations.isEmpty {
            r.failure.append(.init(code: StatusCode.cawgX509CredentialInvalid, url: url, explanation: leafInfo.profileViolations.joined(separator: ", ")))
        }
        switch valid ? chainValidation(parsed, at: nil) : .untrusted(reason: "the certificate is not valid now", code: "expired") {
        case .trusted:
            r.success.append(.init(code: StatusCode.cawgX509CredentialTrusted, url: url))
        case .untrusted(let reason, let code):
            r.failure.append(.init(code: StatusCode.cawgX509CredentialUntrusted, url: url, explanation: "\(code): \(reason)"))
        }
        guard key.verify(signature: cose.signature, message: cose.toBeSigned(payload: ia.signerPayloadBytes), algorithm: alg) else {
            r.failure.append(.init(code: StatusCode.cawgX509SignatureMismatch, url: url, explanation: "signature mismatch"))
            return
        }
        r.success.append(.init(code: StatusCode.cawgX509SignatureValidated, url: url, explanation: "X.509 identity assertion signature validated"))
        r.success.append(.init(code: StatusCode.cawgIdentityWellFormed, url: url, explanation: "CAWG X.509 identity signature valid"))
    }
}
